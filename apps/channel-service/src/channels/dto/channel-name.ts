/** DESIGN §6: channel names are slugs. */
export const CHANNEL_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** The longest name the pattern takes. */
export const MAX_CHANNEL_NAME_LENGTH = 64;
export const CHANNEL_NAME_RULE = 'a slug: 1-64 characters of a-z, 0-9, ".", "_" or "-", starting with a letter or digit';
export const MAX_DESCRIPTION_LENGTH = 2000;
export const MAX_SUMMARY_THRESHOLD = 100_000;
export const MAX_UPDATE_AFTER_SECONDS = 7 * 24 * 3600;
export const MAX_MEMBERS = 1000;
export const MAX_SUMMARISER_NAME_LENGTH = 64;
export const MAX_SUMMARY_THRESHOLD_TOKENS = 10_000_000;

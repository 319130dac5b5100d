/**
 * Injection token of the default `ContentSummariser<Message>` (the `heuristic` strategy, also the
 * medium tier of `tiered`). Its default provider is `HeuristicMessageSummariser`; a domain team
 * replaces it by providing this token (see ChannelSummaryModule's `contentSummariser` extra).
 * A string, not a Symbol, so it stays equal across duplicated module copies and reads well in errors.
 */
export const CONTENT_SUMMARISER = 'QHORUS_CONTENT_SUMMARISER';

/** Injection token of the resolved `ChannelSummaryModuleOptions`. */
export const CHANNEL_SUMMARY_OPTIONS = 'QHORUS_CHANNEL_SUMMARY_OPTIONS';

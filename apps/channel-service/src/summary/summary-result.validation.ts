/** The check lives with the summariser composition (it runs before the state is merged); re-exported for the app. */
export { assertValidSummary, InvalidSummaryError } from '@qhorus/blocks-channel-summary';

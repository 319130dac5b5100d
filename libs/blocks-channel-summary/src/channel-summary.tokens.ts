/**
 * Injection token of the default `ContentSummariser<Message>` (the `heuristic` strategy, also the
 * medium tier of `tiered`). Its default provider is `HeuristicMessageSummariser`; a domain team
 * replaces it by providing this token (see ChannelSummaryModule's `contentSummariser` extra).
 * A string, not a Symbol, so it stays equal across duplicated module copies and reads well in errors.
 */
export const CONTENT_SUMMARISER = 'QHORUS_CONTENT_SUMMARISER';

/** Injection token of the resolved `ChannelSummaryModuleOptions`. */
export const CHANNEL_SUMMARY_OPTIONS = 'QHORUS_CHANNEL_SUMMARY_OPTIONS';

/**
 * Injection token of named strategies contributed through DI: a provider of
 * `Record<string, ContentSummariser<Message>>` in a module passed as ChannelSummaryModule's
 * `imports` extra. Merged with `options.strategies`; a name given twice fails at start-up.
 */
export const SUMMARISER_STRATEGIES = 'QHORUS_SUMMARISER_STRATEGIES';

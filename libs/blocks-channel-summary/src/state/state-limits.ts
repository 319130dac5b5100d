/**
 * Ageing rules of the channel state: the state keys stay bounded whatever the channel's length.
 * Lists keep the most recent entries and say (or count) how many were left out.
 */

/** Longest message excerpt kept in annotations (open threads, closures, decisions, statuses). */
export const STATE_EXCERPT_CAP = 100;
/** Open threads tracked; past this the oldest are dropped and counted in `openThreadsDropped`. */
export const OPEN_THREADS_CAP = 200;
/** Recently closed or handed-off threads kept (the newest win). */
export const RECENT_CLOSURES_KEEP = 10;
/** Decisions kept (the newest win). */
export const DECISIONS_KEEP = 10;
/** Agents whose latest STATUS is kept (the agents who reported most recently win). */
export const STATUS_AGENTS_KEEP = 20;
/** Participants and topics tracked; past this the least active are dropped. */
export const NAME_LIST_CAP = 1000;

/**
 * Bounds of the heuristic summariser. The report and the annotations stay bounded whatever the
 * channel's length: lists keep the most recent entries and say how many were left out.
 */

/** Longest report text, in characters, whatever the channel's length. */
export const HEURISTIC_TEXT_CAP = 2000;
/** Longest single line of the report; longer lines are cut with "…". */
export const HEURISTIC_LINE_CAP = 200;
/** Longest message excerpt kept in annotations (open threads, closures, decisions, statuses). */
export const HEURISTIC_EXCERPT_CAP = 100;
/** Longest channel description shown at the top of the report. */
export const HEURISTIC_PREAMBLE_CAP = 160;

/** Open requests tracked; past this the oldest are dropped and counted in `openThreadsDropped`. */
export const OPEN_THREADS_CAP = 200;
/** Recently closed or handed-off threads kept (the newest win). */
export const RECENT_CLOSURES_KEEP = 10;
/** Decisions kept (the newest win). */
export const DECISIONS_KEEP = 10;
/** Agents whose latest STATUS is kept (the agents who reported most recently win). */
export const STATUS_AGENTS_KEEP = 20;
/** Participants and topics tracked; past this the least active are dropped. */
export const NAME_LIST_CAP = 1000;

/** Share of the report's list budget given to each section (open threads matter most). */
export const SECTION_WEIGHTS = Object.freeze({
  openThreads: 4,
  recentClosures: 2,
  latestStatus: 2,
  decisions: 2,
});

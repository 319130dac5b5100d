/**
 * Bounds of the heuristic's report (the state it renders is bounded by the tracker's ageing
 * rules, see state/state-limits.ts). The report stays bounded whatever the channel's length.
 */

/** Longest report text, in characters, whatever the channel's length. */
export const HEURISTIC_TEXT_CAP = 2000;
/** Longest single line of the report; longer lines are cut with "…". */
export const HEURISTIC_LINE_CAP = 200;
/** Longest channel description shown at the top of the report. */
export const HEURISTIC_PREAMBLE_CAP = 160;

/** Share of the report's list budget given to each section (open threads matter most). */
export const SECTION_WEIGHTS = Object.freeze({
  openThreads: 4,
  recentClosures: 2,
  latestStatus: 2,
  decisions: 2,
});

/**
 * "The backlog reached the threshold": the one definition of a channel's summary falling due by
 * its backlog, in SQL and in TypeScript (backlogReached, checked against the SQL by
 * test/summary-backlog.e2e-spec.ts). summary/summary-due.ts composes the whole "due" from it.
 * It lives with the `channels` table because the sweep's flag `channels.summary_due` (migration
 * 1765300000000) is a column of it, kept by every statement that moves one of its terms: a post
 * (the last seq), a summary commit (the watermark), a threshold change, an archive, a removal.
 */

/** The backlog: how far `through` (a last seq, a running token total) is past the summary's `watermark`. */
export const backlogSql = (through: string, watermark: string): string => `${through} - ${watermark}`;

/** The backlog has reached the threshold. */
export const backlogReachedSql = (backlog: string, threshold: string): string => `${backlog} >= ${threshold}`;

/** backlogReachedSql, for a backlog already computed (the post's trigger). */
export const backlogReached = (backlog: number, threshold: number): boolean => backlog >= threshold;

/** The watermark of the channel row being updated, for a statement on `channels` alone: 0 before the first summary. */
const UPDATED_CHANNEL_WATERMARK = `COALESCE((SELECT s.covers_through_seq FROM channel_summaries s WHERE s.channel_id = channels.id), 0)`;

/** The new value of `channels.summary_due`, from the channel's last seq, threshold and watermark (SQL expressions). */
export const summaryDueFlagSql = (lastSeq = 'last_seq', threshold = 'summary_threshold', watermark = UPDATED_CHANNEL_WATERMARK): string =>
  backlogReachedSql(backlogSql(lastSeq, watermark), threshold);

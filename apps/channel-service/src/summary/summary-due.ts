import { backlogReachedSql, backlogSql } from '../channels/summary-backlog';

/**
 * When a channel's summary is due, over `channels c JOIN channel_summaries s`: its backlog reached
 * the threshold (in messages, or in estimated tokens when `summary_threshold_tokens` is set), its
 * `updateAfterSeconds` elapsed since the last summary with messages pending, or a manual refresh
 * asked for messages the watermark has not reached yet. Never for an archived channel (it runs no
 * summary job). The job's start, its commit ("due again"), the sweep and a reconfiguration ask it.
 */
export const SUMMARY_DUE_SQL = `c.last_seq > s.covers_through_seq AND c.archived_at IS NULL
  AND (${backlogReachedSql(backlogSql('c.last_seq', 's.covers_through_seq'), 'c.summary_threshold')}
       OR (c.summary_threshold_tokens IS NOT NULL AND ${backlogReachedSql(backlogSql('c.token_total', 's.covers_through_tokens'), 'c.summary_threshold_tokens')})
       OR s.refresh_through_seq > s.covers_through_seq
       OR (c.update_after_seconds IS NOT NULL
           AND now() - COALESCE(s.updated_at, c.created_at) >= make_interval(secs => c.update_after_seconds)))`;

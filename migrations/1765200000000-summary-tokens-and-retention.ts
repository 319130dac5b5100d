import { MigrationInterface, QueryRunner } from 'typeorm';
// A backfill must store exactly what the app computes at insert, so it calls the app's own pure
// estimate rather than a copy that could drift: the one place a migration imports the app.
// eslint-disable-next-line boundaries/dependencies
import { MessageRow, toMessage } from '../apps/channel-service/src/message-store/message.entity';
// eslint-disable-next-line boundaries/dependencies
import { projectedMessageTokens } from '../apps/channel-service/src/messages/message-token-estimate';

/** Messages estimated per round trip while backfilling. */
const BACKFILL_BATCH = 1000;

/**
 * Stored token figures, so `pendingTokens`, the token trigger and `/context` never read the
 * history (issue 14 item 6):
 * - `messages.token_estimate`: what the message costs in a projection (`projectedMessageTokens`,
 *   the CJK-aware estimator on the tagged text; 0 for EVENT), and `messages.tokens_through`: the
 *   channel's running total through this message, so any range's tokens are two indexed lookups;
 * - `channels.token_total`: the running total at `last_seq`; `channel_summaries.covers_through_tokens`:
 *   the running total at the watermark. pending tokens = token_total − covers_through_tokens.
 * - `channels.summary_threshold_tokens`: the optional token trigger.
 * - `channel_summaries.refresh_requested_at`: a manual refresh asked after the last failure
 *   bypasses the failure backoff once (see SummaryRepository).
 * Existing messages are estimated here by the same TypeScript function the service uses at
 * insert (the estimator's Unicode script classes have no Postgres regex counterpart), in batches.
 */
export class SummaryTokensAndRetention1765200000000 implements MigrationInterface {
  name = 'SummaryTokensAndRetention1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages ADD COLUMN token_estimate integer NOT NULL DEFAULT 0, ADD COLUMN tokens_through bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE channels ADD COLUMN token_total bigint NOT NULL DEFAULT 0,
      ADD COLUMN summary_threshold_tokens integer CHECK (summary_threshold_tokens >= 1)`);
    await q.query(`ALTER TABLE channel_summaries ADD COLUMN covers_through_tokens bigint NOT NULL DEFAULT 0, ADD COLUMN refresh_requested_at timestamptz`);
    await this.backfill(q);
  }

  private async backfill(q: QueryRunner): Promise<void> {
    for (let after = '0'; ; ) {
      const rows: MessageRow[] = await q.query(
        `SELECT id, seq, type, sender, content, topic, correlation_id, in_reply_to, target, metadata, created_at
         FROM messages WHERE id > $1 ORDER BY id LIMIT $2`,
        [after, BACKFILL_BATCH],
      );
      if (rows.length === 0) break;
      const estimates = rows.map((r) => projectedMessageTokens(toMessage(r, '')));
      await q.query(
        `UPDATE messages m SET token_estimate = e.tokens
         FROM unnest($1::bigint[], $2::int[]) AS e(id, tokens) WHERE m.id = e.id`,
        [rows.map((r) => r.id), estimates],
      );
      after = String(rows[rows.length - 1].id);
    }
    await q.query(`
      UPDATE messages m SET tokens_through = r.total
      FROM (SELECT id, sum(token_estimate) OVER (PARTITION BY channel_id ORDER BY seq) AS total FROM messages) r
      WHERE m.id = r.id`);
    await q.query(`
      UPDATE channels c SET token_total = m.tokens_through
      FROM messages m WHERE m.channel_id = c.id AND m.seq = c.last_seq`);
    await q.query(`
      UPDATE channel_summaries s SET covers_through_tokens = m.tokens_through
      FROM messages m WHERE m.channel_id = s.channel_id AND m.seq = s.covers_through_seq`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE channel_summaries DROP COLUMN refresh_requested_at, DROP COLUMN covers_through_tokens`);
    await q.query(`ALTER TABLE channels DROP COLUMN summary_threshold_tokens, DROP COLUMN token_total`);
    await q.query(`ALTER TABLE messages DROP COLUMN tokens_through, DROP COLUMN token_estimate`);
  }
}

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { MessageRow, toMessage } from '../apps/channel-service/src/message-store/message.entity';
import { projectedMessageTokens } from '../apps/channel-service/src/messages/message-token-estimate';
import { SummaryTokensAndRetention1765200000000 } from '../migrations/1765200000000-summary-tokens-and-retention';
import { ApiClient } from './support/http';
import { migrate, MIGRATIONS, serveDatabase } from './support/migrations';
import { createTestDatabase } from './support/test-database';
import { TEST_ADMIN_TOKEN } from './support/test-app';

/** More than two of the migration's batches (1,000 messages each). */
const MESSAGES_PER_CHANNEL = 1_300;
const WATERMARK = 700;

/**
 * A database that already holds messages when the token migration runs: every message gets the
 * estimate the service computes at insert, the running totals follow, and the service then
 * reports pendingTokens and continues the totals from there.
 */
describe('the token migration backfills a database that already has messages', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pg: Client;
  let app: NestFastifyApplication | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('tokenbackfill');
    const before = MIGRATIONS.slice(0, MIGRATIONS.indexOf(SummaryTokensAndRetention1765200000000));
    await migrate(db.url, before);
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    for (const name of ['old-a', 'old-b']) {
      await pg.query(
        `INSERT INTO channels (name, summary_threshold, summariser, created_by, last_seq) VALUES ($1, 100000, 'heuristic', 'alice', $2)`,
        [name, MESSAGES_PER_CHANNEL],
      );
      await pg.query(
        `INSERT INTO channel_summaries (channel_id, text, covers_through_seq, version) SELECT id, 'old summary', $2, 1 FROM channels WHERE name = $1`,
        [name, WATERMARK],
      );
      // Latin, CJK, empty content, EVENTs, targets, threads and replies, seqs of 1 to 4 digits.
      await pg.query(
        `INSERT INTO messages (channel_id, seq, type, sender, content, correlation_id, in_reply_to, target)
         SELECT c.id, g,
                CASE WHEN g % 9 = 0 THEN 'EVENT' WHEN g % 5 = 0 THEN 'QUERY' WHEN g % 7 = 0 THEN 'DONE' ELSE 'STATUS' END,
                CASE WHEN g % 2 = 0 THEN 'alice' ELSE 'bob' END,
                CASE WHEN g % 7 = 0 THEN '' WHEN g % 3 = 0 THEN '发布日期定在星期五 ' || g ELSE repeat('step ' || g || ' ok, ', g % 6) END,
                CASE WHEN g % 5 = 0 THEN 'corr-' || g END,
                CASE WHEN g % 11 = 0 THEN g - 1 END,
                CASE WHEN g % 4 = 0 THEN 'carol' END
         FROM channels c, generate_series(1, $2::int) g WHERE c.name = $1`,
        [name, MESSAGES_PER_CHANNEL],
      );
    }
    await migrate(db.url, MIGRATIONS);
  });
  afterAll(async () => {
    await app?.close();
    await pg?.end();
    await db?.drop();
  });

  it('stores every message\'s projection estimate and the running totals per channel', async () => {
    for (const name of ['old-a', 'old-b']) {
      const rows: (MessageRow & { token_estimate: number; tokens_through: string })[] = (
        await pg.query(
          `SELECT m.*, m.token_estimate, m.tokens_through FROM messages m JOIN channels c ON c.id = m.channel_id WHERE c.name = $1 ORDER BY m.seq`,
          [name],
        )
      ).rows;
      expect(rows).toHaveLength(MESSAGES_PER_CHANNEL);
      let total = 0;
      let atWatermark = 0;
      for (const row of rows) {
        const expected = projectedMessageTokens(toMessage(row, name));
        total += expected;
        if (Number(row.seq) === WATERMARK) atWatermark = total;
        expect({ seq: row.seq, estimate: row.token_estimate, through: Number(row.tokens_through) }).toEqual({ seq: row.seq, estimate: expected, through: total });
      }
      const channel = (await pg.query(`SELECT c.token_total, s.covers_through_tokens FROM channels c JOIN channel_summaries s ON s.channel_id = c.id WHERE c.name = $1`, [name])).rows[0];
      expect({ total: Number(channel.token_total), watermark: Number(channel.covers_through_tokens) }).toEqual({ total, watermark: atWatermark });
    }
  });

  it('lets the service report pendingTokens and continue the running total with the next post', async () => {
    const served = await serveDatabase(db.url);
    app = served.app;
    const admin = new ApiClient(served.baseUrl, TEST_ADMIN_TOKEN);
    const totals = async () =>
      (await pg.query(`SELECT c.token_total, s.covers_through_tokens FROM channels c JOIN channel_summaries s ON s.channel_id = c.id WHERE c.name = 'old-a'`)).rows[0];
    const before = await totals();
    const summary = (await admin.get('/api/v1/channels/old-a/summary')).body;
    expect(summary).toMatchObject({ pending: MESSAGES_PER_CHANNEL - WATERMARK, pendingTokens: Number(before.token_total) - Number(before.covers_through_tokens) });

    const posted = await admin.post('/api/v1/channels/old-a/messages', { type: 'STATUS', content: 'the first message after the migration' });
    expect(posted.status).toBe(201);
    const after = (await admin.get('/api/v1/channels/old-a/summary')).body;
    expect(after.pendingTokens).toBe(summary.pendingTokens + projectedMessageTokens(posted.body));
  });
});

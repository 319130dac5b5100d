import { Client } from 'pg';
import { ApiClient, waitFor } from '../support/http';
import { ensureServiceBuilt, ServiceProcess, startServiceProcess } from '../support/process-harness';
import { createTestDatabase } from '../support/test-database';

/** No summary job of its own: versions come from overrides, at known watermarks. */
const MANUAL_ONLY = 100_000;
const CHANNELS = ['early-a', 'early-b', 'crashing'];
/** Each channel: a closed thread (seqs 1, 2), then STATUS messages; a summary version through 20; 30 messages in all. */
const MESSAGES = 30;
const SUMMARISED_THROUGH = 20;

/**
 * A retention pass killed (SIGKILL) in the middle of a channel's step: the test holds a lock on
 * the thread row the step deletes, so the step is provably inside its transaction (its messages
 * already deleted) when the process dies. Batches are one channel each, so the two channels
 * before it committed: what is kept stays firstSeq..lastSeq everywhere, with no gap, no thread
 * half removed, and an audit row exactly for each committed step; a new process then finishes.
 */
describe('retention survives a kill -9 in the middle of a pass', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pg: Client;
  let blocker: Client;
  const running: ServiceProcess[] = [];

  const start = async (name: string) => {
    const service = await startServiceProcess({
      name,
      databaseUrl: db.url,
      queuePrefix: `qtest-retention-crash-${process.pid}`,
      env: { QHORUS_RETENTION_SWEEP_MS: '200', QHORUS_RETENTION_BATCH: '1', LOG_LEVEL: 'warn' },
    });
    running.push(service);
    return service;
  };

  beforeAll(async () => {
    await ensureServiceBuilt();
    db = await createTestDatabase('retention-crash');
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    blocker = new Client({ connectionString: db.url });
    await blocker.connect();
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.kill()));
    await blocker?.end().catch(() => undefined);
    await pg?.end();
    await db?.drop();
  });

  /** Every channel: kept = firstSeq..lastSeq, firstSeq − 1 = the base's watermark, no closed thread left without messages, every kept thread message has its row. */
  async function expectConsistent(): Promise<Map<string, number>> {
    const firstSeqs = new Map<string, number>();
    for (const name of CHANNELS) {
      const { rows: [c] } = await pg.query(
        `SELECT c.id, c.first_seq::int, c.last_seq::int, s.base_version, h.covers_through_seq::int AS base_watermark
         FROM channels c JOIN channel_summaries s ON s.channel_id = c.id
         LEFT JOIN channel_summary_history h ON h.channel_id = c.id AND h.version = s.base_version WHERE c.name = $1`,
        [name],
      );
      const { rows: kept } = await pg.query(`SELECT seq::int FROM messages WHERE channel_id = $1 ORDER BY seq`, [c.id]);
      expect(kept.map((r) => r.seq)).toEqual(Array.from({ length: c.last_seq - c.first_seq + 1 }, (_, i) => c.first_seq + i));
      expect(c.first_seq === 1 ? c.base_version : c.base_watermark).toBe(c.first_seq === 1 ? null : c.first_seq - 1);
      const { rows: stranded } = await pg.query(`SELECT correlation_id FROM threads WHERE channel_id = $1 AND status <> 'open' AND updated_seq < $2`, [c.id, c.first_seq]);
      expect(stranded).toEqual([]);
      const { rows: orphans } = await pg.query(
        `SELECT m.seq FROM messages m LEFT JOIN threads t ON t.channel_id = m.channel_id AND t.correlation_id = m.correlation_id
         WHERE m.channel_id = $1 AND m.correlation_id IS NOT NULL AND t.channel_id IS NULL`,
        [c.id],
      );
      expect(orphans).toEqual([]);
      const { rows: audit } = await pg.query(`SELECT seq::int FROM audit_log WHERE channel = $1 AND action = 'channel.retention' ORDER BY id`, [name]);
      expect(audit.map((a) => a.seq)).toEqual(c.first_seq === 1 ? [] : [c.first_seq - 1]);
      firstSeqs.set(name, c.first_seq);
    }
    return firstSeqs;
  }

  it('SIGKILL while a step waits inside its transaction: committed steps stay whole, the killed one leaves nothing, a restart finishes', async () => {
    const first = await start('retention-crash-1');
    const alice = first.client((await first.admin.post('/api/v1/agents', { name: 'alice' })).body.token);
    const bob = first.client((await first.admin.post('/api/v1/agents', { name: 'bob' })).body.token);
    for (const name of CHANNELS) {
      expect((await alice.post('/api/v1/channels', { name, summaryThreshold: MANUAL_ONLY })).status).toBe(201);
      expect((await alice.post(`/api/v1/channels/${name}/messages`, { type: 'QUERY', content: 'q', correlationId: `t-${name}` })).status).toBe(201);
      expect((await bob.post(`/api/v1/channels/${name}/messages`, { type: 'RESPONSE', content: 'a', correlationId: `t-${name}` })).status).toBe(201);
      const rest = Array.from({ length: SUMMARISED_THROUGH - 2 }, (_, i) => ({ type: 'STATUS', content: `s${i}` }));
      expect((await alice.post(`/api/v1/channels/${name}/messages/batch`, { messages: rest })).status).toBe(201);
      expect((await alice.put(`/api/v1/channels/${name}/summary`, { text: 'through 20' })).status).toBe(200);
      const more = Array.from({ length: MESSAGES - SUMMARISED_THROUGH }, (_, i) => ({ type: 'STATUS', content: `m${i}` }));
      expect((await alice.post(`/api/v1/channels/${name}/messages/batch`, { messages: more })).status).toBe(201);
    }
    // The crashing channel's step will wait on this lock, after deleting its messages.
    await blocker.query('BEGIN');
    await blocker.query(`SELECT 1 FROM threads WHERE correlation_id = 't-crashing' FOR UPDATE`);
    for (const name of CHANNELS) expect((await alice.patch(`/api/v1/channels/${name}`, { retention: { maxMessages: 5 } })).status).toBe(200);

    await waitFor(
      async () => (await pg.query(`SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND query LIKE '%DELETE FROM threads%'`, [db.name])).rowCount === 1,
      'the crashing channel step to wait inside its transaction',
    );
    await first.stop('SIGKILL');
    await blocker.query('ROLLBACK');
    // The orphaned backend goes on once the lock is free, and can never commit: its client is gone.
    await waitFor(async () => (await pg.query(`SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND query LIKE '%DELETE FROM threads%'`, [db.name])).rowCount === 0, 'the orphaned step to end');

    const afterCrash = await expectConsistent();
    expect(afterCrash).toEqual(new Map([['early-a', 21], ['early-b', 21], ['crashing', 1]]));
    expect((await pg.query(`SELECT 1 FROM threads WHERE correlation_id = 't-crashing'`)).rowCount).toBe(1);

    const second = await start('retention-crash-2');
    const reader = new ApiClient(second.baseUrl, alice.token);
    await waitFor(async () => (await reader.get('/api/v1/channels/crashing')).body.firstSeq === SUMMARISED_THROUGH + 1, 'the restarted pass to finish the channel');
    expect(await expectConsistent()).toEqual(new Map(CHANNELS.map((name) => [name, SUMMARISED_THROUGH + 1])));
    expect((await reader.get('/api/v1/channels/crashing/threads/t-crashing')).status).toBe(404);
    await second.stop();
  });
});

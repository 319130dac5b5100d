import { Message, SummaryResult } from '@qhorus/api';
import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { Client } from 'pg';
import { ApiClient, waitFor } from './support/http';
import { logLines } from './support/log-lines';
import { TEST_REDIS_URL } from './support/test-database';
import { startTestApp, TestApp } from './support/test-app';

/** A summariser a domain team might register, whose every failure quotes what it read (as a parse error's snippet does). */
class QuotingSummariser implements ContentSummariser<Message> {
  async summarise(items: readonly Message[]): Promise<SummaryResult> {
    throw new Error(`cannot summarise: ${items.map((m) => m.content).join(' | ')}`);
  }
}

/** Every value stored under `prefix` in Redis, as text (hashes, strings, lists, sets, sorted sets, streams). */
async function redisValues(redis: Redis, prefix: string): Promise<string> {
  const out: string[] = [];
  for (const key of await redis.keys(`${prefix}*`)) {
    const type = await redis.type(key);
    if (type === 'hash') out.push(JSON.stringify(await redis.hgetall(key)));
    else if (type === 'string') out.push(String(await redis.get(key)));
    else if (type === 'list') out.push(JSON.stringify(await redis.lrange(key, 0, -1)));
    else if (type === 'set') out.push(JSON.stringify(await redis.smembers(key)));
    else if (type === 'zset') out.push(JSON.stringify(await redis.zrange(key, 0, -1)));
    else if (type === 'stream') out.push(JSON.stringify(await redis.xrange(key, '-', '+')));
  }
  return out.join('\n');
}

/**
 * Standards: no message content reaches a log. A summariser a domain team registered may quote
 * the messages in its errors; its failure is logged, and recorded by the queue (BullMQ keeps a
 * failed job's reason in Redis), by its class only, and its words are kept only with the summary
 * (`lastError`, a thread's `summary_error`), where a redaction reaches them.
 */
describe("a registered summariser's failure never puts message content in a log or in Redis", () => {
  const { lines, stream: logs } = logLines();
  let t: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let db: Client;
  let redis: Redis;

  beforeAll(async () => {
    // nestjs-pino keeps one process-wide logger for logs outside a request: this app's must reach this stream.
    __resetOutOfContextForTests();
    t = await startTestApp('sumerrlogs', { summarisers: { quoting: new QuotingSummariser() }, logDestination: logs, env: { LOG_LEVEL: 'debug', QHORUS_JOB_ATTEMPTS: '1' } });
    [alice, bob] = [await t.agent('alice'), await t.agent('bob')];
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    await db?.end();
    redis?.disconnect();
    await t?.close();
  });

  it('logs the channel summary and thread summary failures by class, keeps the words with the summary', async () => {
    const [channelSecret, threadSecret] = [randomBytes(12).toString('hex'), randomBytes(12).toString('hex')];
    expect((await alice.post('/api/v1/channels', { name: 'errs', summariser: 'quoting', summaryThreshold: 1 })).status).toBe(201);
    expect((await alice.post('/api/v1/channels/errs/messages', { type: 'STATUS', content: `deploy key ${channelSecret}` })).status).toBe(201);
    const failed = await waitFor(async () => (await alice.get('/api/v1/channels/errs/summary')).body.lastError, 'the failed summary step');
    expect(failed).toBe(`summariser 'quoting' failed: cannot summarise: deploy key ${channelSecret}`);

    // A thread on a channel whose own summary is not due: the closed thread's summary fails the same way.
    expect((await alice.post('/api/v1/channels', { name: 'thread-errs', summariser: 'quoting', summaryThreshold: 10_000 })).status).toBe(201);
    const query = await alice.post('/api/v1/channels/thread-errs/messages', { type: 'QUERY', content: `which key? ${threadSecret}` });
    await bob.post('/api/v1/channels/thread-errs/messages', { type: 'RESPONSE', content: 'that one', correlationId: query.body.correlationId });
    const threadError = await waitFor(async () => {
      const rows = await db.query<{ summary_error: string | null }>(`SELECT summary_error FROM threads WHERE correlation_id = $1`, [query.body.correlationId]);
      return rows.rows[0]?.summary_error;
    }, 'the failed thread summary');
    expect(threadError).toContain(threadSecret);

    const logged = await waitFor(async () => {
      const entries = lines.map((l) => JSON.parse(l));
      const step = entries.find((e) => e.msg === 'summary step failed');
      const thread = entries.find((e) => e.msg === 'thread summary failed');
      return step && thread ? { step, thread } : null;
    }, 'both failures logged');
    expect(logged.step.err).toBe("summariser 'quoting' failed (Error); its message is kept with the summary, not logged");
    expect(logged.thread.err).toBe(logged.step.err);
    // Give the queue time to record the failed jobs and log them, then look everywhere.
    await waitFor(async () => (await redisValues(redis, t.queuePrefix)).includes("summariser 'quoting' failed (Error)"), "the queue's failed-job record");
    const everything = lines.join('\n');
    const stored = await redisValues(redis, t.queuePrefix);
    for (const secret of [channelSecret, threadSecret]) {
      expect(everything).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
  });
});

import { execFileSync } from 'node:child_process';
import { ApiClient } from './support/http';
import { postSecret, readEverySurface, surfacesWith, uniqueSecret, waitForReplay } from './support/lifecycle-scenario';
import { startTestApp, TestApp } from './support/test-app';

/** The whole database as `pg_dump --data-only` writes it: every row of every table, as text. */
function dataDump(databaseUrl: string): string {
  return execFileSync('pg_dump', ['--data-only', '--no-owner', databaseUrl], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

/**
 * Issue 29's first proof on Postgres with BullMQ: a unique secret in a verbatim channel's QUERY
 * thread, captured by two summary versions and a thread summary, is redacted; then no REST route,
 * SSE replay, MCP tool or resource, and no byte of the database's data returns it, and the summary
 * rebuilt forward agrees with the redacted history.
 */
describe('redaction leaves no copy anywhere (Postgres, BullMQ)', () => {
  let t: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  const secret = uniqueSecret();

  beforeAll(async () => {
    t = await startTestApp('nocopy');
    [alice, bob] = [await t.agent('alice'), await t.agent('bob')];
  });
  afterAll(() => t?.close());

  it('finds the secret everywhere before, nowhere after, and the replayed summary matches the redacted history', async () => {
    const s = await postSecret(alice, bob, 'vault', secret);

    const before = await readEverySurface(alice, s);
    const c = '/api/v1/channels/vault';
    expect(surfacesWith(before, secret)).toEqual(
      expect.arrayContaining([
        `GET ${c}/messages`,
        `GET ${c}/summary`,
        `GET ${c}/summary/history`,
        `GET ${c}/threads/${s.correlationId}/summary`,
        'SSE replay',
        'MCP check_messages {"channel":"vault"}',
        'MCP get_channel_summary {"channel":"vault"}',
        'MCP resources/read qhorus://channels/vault/summary',
        `GET /api/v1/search?q=${encodeURIComponent(secret)}`,
        `GET ${c}/export`,
        `MCP search_messages {"query":"${secret}"}`,
      ]),
    );
    expect(dataDump(t.databaseUrl)).toContain(secret);

    const redacted = await alice.post(`${c}/messages/${s.seq}/redact`, { reason: 'a production key was pasted' });
    expect(redacted.status).toBe(200);
    expect(redacted.body).toMatchObject({ seq: s.seq, sender: 'alice', type: 'QUERY', correlationId: s.correlationId, content: null, topic: null, metadata: null });
    const { summary, threadSummary } = await waitForReplay(alice, s);

    expect(surfacesWith(await readEverySurface(alice, s), secret)).toEqual([]);
    expect(surfacesWith(await readEverySurface(t.admin, s), secret)).toEqual([]);
    const dump = dataDump(t.databaseUrl);
    expect(dump).toContain('a production key was pasted'); // the dump is of this database, after the redaction
    expect(dump).not.toContain(secret);

    // The replayed summary lists the redacted history: every kept message, the tombstone as [redacted].
    const messages = (await alice.get(`${c}/messages`)).body as { seq: number; content: string | null }[];
    expect(summary.coversThroughSeq).toBe(messages[messages.length - 1].seq);
    expect(summary.text).toContain(`#${s.seq} QUERY alice (corr ${s.correlationId}): [redacted]`);
    for (const m of messages.filter((x) => x.content)) expect(summary.text).toContain(m.content);
    expect(JSON.parse(summary.annotations.openThreads)).toEqual([]);
    expect(threadSummary.text).toContain('yes, rotate it');
  });
});

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../apps/channel-service/src/bootstrap';
import { loadConfig } from '../apps/channel-service/src/config/app-config';
import { Database } from '../apps/channel-service/src/database/database';
import { ApiClient } from './support/http';
import { postSecret, readEverySurface, surfacesWith, uniqueSecret, waitForReplay } from './support/lifecycle-scenario';

const ADMIN_TOKEN = 'qha_embedded-redaction-0123456789';

/** The tables holding `needle` anywhere in a row (every column, read as the row's text), over every table of the schema. */
async function tablesWith(db: Database, needle: string): Promise<string[]> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  expect(tables.map((r) => r.table_name)).toEqual(expect.arrayContaining(['messages', 'channel_summaries', 'channel_summary_history', 'thread_summaries', 'audit_log']));
  const hits: string[] = [];
  for (const { table_name } of tables) {
    const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table_name}" t WHERE t::text LIKE $1`, [`%${needle}%`]);
    if (n > 0) hits.push(table_name);
  }
  return hits;
}

/**
 * The same proof on the embedded default (PGlite, in-process jobs): the machine's pg_dump 15
 * cannot dump PGlite's Postgres, so every table is searched row by row instead.
 */
describe('redaction leaves no copy anywhere (embedded PGlite, in-process jobs)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'qhorus-redaction-'));
  let app: NestFastifyApplication;
  let admin: ApiClient;

  beforeAll(async () => {
    app = await createApp(loadConfig({ QHORUS_DATA_DIR: dataDir, QHORUS_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'silent' }));
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    admin = new ApiClient(`http://127.0.0.1:${port}`, ADMIN_TOKEN);
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds the secret on every surface and in the tables before, on none after, and the summary replays the redacted history', async () => {
    const secret = uniqueSecret();
    const agent = async (name: string) => admin.as((await admin.post('/api/v1/agents', { name })).body.token);
    const [alice, bob] = [await agent('alice'), await agent('bob')];
    const db = app.get(Database);
    const s = await postSecret(alice, bob, 'vault', secret);

    const before = await readEverySurface(alice, s);
    expect(surfacesWith(before, secret).length).toBeGreaterThanOrEqual(10);
    expect(await tablesWith(db, secret)).toEqual(expect.arrayContaining(['messages', 'channel_summaries', 'channel_summary_history', 'thread_summaries']));

    expect((await alice.post(`/api/v1/channels/vault/messages/${s.seq}/redact`, { reason: 'key pasted' })).status).toBe(200);
    const { summary } = await waitForReplay(alice, s);

    expect(surfacesWith(await readEverySurface(alice, s), secret)).toEqual([]);
    expect(surfacesWith(await readEverySurface(admin, s), secret)).toEqual([]);
    expect(await tablesWith(db, secret)).toEqual([]);
    expect(await tablesWith(db, 'key pasted')).toEqual(expect.arrayContaining(['audit_log', 'messages']));
    expect(summary.text).toContain(`#${s.seq} QUERY alice (corr ${s.correlationId}): [redacted]`);
    expect(summary.text).toContain('yes, rotate it');
  });
});

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { Client } from 'pg';
import { hashToken } from '../apps/channel-service/src/auth/tokens';
import { createApp } from '../apps/channel-service/src/bootstrap';
import { loadConfig } from '../apps/channel-service/src/config/app-config';
import { reindex } from '../apps/channel-service/src/search/reindex-command';
import { SearchIndexMaintainer } from '../apps/channel-service/src/search/search-index.maintainer';
import { MessageSearch1765830000000 } from '../migrations/1765830000000-message-search';
import { ApiClient } from './support/http';
import { migrate, MIGRATIONS } from './support/migrations';
import { ensureServiceBuilt, SERVICE_ENTRY } from './support/process-harness';
import { startTestApp, TEST_ADMIN_TOKEN } from './support/test-app';
import { createTestDatabase } from './support/test-database';
import { logLines } from './support/log-lines';

const AGENT_TOKEN = 'qh_search-index-agent-token-0123456789';
/** Existing messages when the search migration arrives: more than one batch of the pass. */
const EXISTING = 250;
const BATCH = '40';

const keysOf = (body: { results: { channel: string; seq: number }[] }) => body.results.map((r) => `${r.channel}#${r.seq}`);

/** A database from before search: the service fills the vectors in batches, builds the index, and a configuration change needs the re-index command. */
describe('the search index on an existing database', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pg: Client;
  let app: NestFastifyApplication | undefined;
  const { entries: lines, stream: logs } = logLines();

  async function serve(env: Record<string, string> = {}): Promise<ApiClient> {
    __resetOutOfContextForTests();
    const config = loadConfig({ DATABASE_URL: db.url, QHORUS_ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', QHORUS_SEARCH_REINDEX_BATCH: BATCH, ...env });
    app = await createApp(config, { logDestination: logs });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    return new ApiClient(`http://127.0.0.1:${port}`, AGENT_TOKEN);
  }
  async function stop(): Promise<void> {
    await app?.close();
    app = undefined;
  }

  beforeAll(async () => {
    await ensureServiceBuilt(); // the start-up failure runs the built service
    db = await createTestDatabase('searchindex');
    await migrate(db.url, MIGRATIONS.slice(0, MIGRATIONS.indexOf(MessageSearch1765830000000)));
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    await pg.query(`INSERT INTO agents (name, token_hash) VALUES ('ann', $1)`, [hashToken(AGENT_TOKEN)]);
    await pg.query(`INSERT INTO channels (name, summary_threshold, summariser, created_by, last_seq) VALUES ('old', 100000, 'heuristic', 'ann', $1)`, [EXISTING]);
    await pg.query(`INSERT INTO channel_summaries (channel_id) SELECT id FROM channels`);
    await pg.query(
      `INSERT INTO messages (channel_id, seq, type, sender, content, topic)
       SELECT c.id, g, 'STATUS', 'ann', CASE WHEN g = 7 THEN 'we decided the rollout order' ELSE 'routine note ' || g END, 'general'
       FROM channels c, generate_series(1, $1::int) g`,
      [EXISTING],
    );
  });
  afterAll(async () => {
    await stop();
    await pg?.end();
    await db?.drop();
  });

  it('fills the vectors of existing messages in batches and builds the index, while the service serves', async () => {
    const ann = await serve();
    await app!.get(SearchIndexMaintainer).whenSettled();
    const { rows } = await pg.query(`SELECT count(*)::int AS missing FROM messages WHERE search_vector IS NULL`);
    expect(rows).toEqual([{ missing: 0 }]);
    expect((await pg.query(`SELECT config, reindex_through FROM search_config`)).rows).toEqual([{ config: 'simple', reindex_through: null }]);
    expect((await pg.query(`SELECT indisvalid FROM pg_index WHERE indexrelid = 'messages_search_idx'::regclass`)).rows).toEqual([{ indisvalid: true }]);
    expect(lines.some((l) => l.msg === 'search vectors built' && l.messages === EXISTING)).toBe(true);
    const res = await ann.get('/api/v1/search?q=decided');
    expect(keysOf(res.body)).toEqual(['old#7']);
    // simple: no stemming.
    expect(keysOf((await ann.get('/api/v1/search?q=decide')).body)).toEqual([]);
    await stop();
  });

  it('logs a configuration that differs from the recorded one at start-up, and keeps searching with the recorded one', async () => {
    lines.length = 0;
    const ann = await serve({ QHORUS_SEARCH_CONFIG: 'english' });
    const warning = lines.find((l) => l.recorded === 'simple' && l.configured === 'english');
    expect(warning?.msg).toContain('npm run search:reindex');
    expect(keysOf((await ann.get('/api/v1/search?q=decided')).body)).toEqual(['old#7']);
    expect(keysOf((await ann.get('/api/v1/search?q=decide')).body)).toEqual([]);

    // The documented command, while the service runs: from then on the index speaks english.
    const said: string[] = [];
    await reindex({ DATABASE_URL: db.url, QHORUS_SEARCH_CONFIG: 'english', QHORUS_SEARCH_REINDEX_BATCH: BATCH }, (line) => said.push(line));
    expect(said.join('\n')).toContain(`${EXISTING} messages rebuilt`);
    expect((await pg.query(`SELECT config, reindex_through FROM search_config`)).rows).toEqual([{ config: 'english', reindex_through: null }]);
    expect(keysOf((await ann.get('/api/v1/search?q=decide')).body)).toEqual(['old#7']);
    // english drops stop words: a q of only stop words parses to nothing.
    const empty = await ann.get('/api/v1/search?q=the');
    expect(empty.status).toBe(400);
    expect(empty.body.details).toEqual([{ field: 'q', problems: [expect.stringContaining('no word to search for')] }]);
    // A post after the switch is indexed in the new configuration by the trigger.
    expect((await ann.post('/api/v1/channels/old/messages', { content: 'rollouts are scheduled' })).status).toBe(201);
    expect(keysOf((await ann.get('/api/v1/search?q=schedule')).body)).toEqual([`old#${EXISTING + 1}`]);
    await stop();
  });

  it('rebuilds an index a failed concurrent build left invalid', async () => {
    // What an interrupted CREATE INDEX CONCURRENTLY leaves behind: the index, marked invalid.
    await pg.query(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'messages_search_idx'::regclass`);
    await serve({ QHORUS_SEARCH_CONFIG: 'english' });
    await app!.get(SearchIndexMaintainer).whenSettled();
    expect((await pg.query(`SELECT indisvalid FROM pg_index WHERE indexrelid = 'messages_search_idx'::regclass`)).rows).toEqual([{ indisvalid: true }]);
    await stop();
  });

  it('refuses to start with a configuration the database does not have: one line naming the knob, exit 1', async () => {
    const child = spawn(process.execPath, [SERVICE_ENTRY], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: db.url, QHORUS_ADMIN_TOKEN: TEST_ADMIN_TOKEN, PORT: '0', HOST: '127.0.0.1', QHORUS_SEARCH_CONFIG: 'klingon' },
    });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    const last = JSON.parse(err.trim().split('\n').pop()!);
    expect(last).toMatchObject({ level: 'error', message: expect.stringContaining("QHORUS_SEARCH_CONFIG 'klingon' is not a text search configuration") });
  });
});

describe('search on the embedded default (PGlite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'qhorus-search-embedded-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('answers a search, the index built there too', async () => {
    const t = await startTestApp('search-embedded', { inProcessQueue: true, env: { DATABASE_URL: '', QHORUS_DATA_DIR: dataDir } });
    try {
      const alice = await t.agent('alice');
      expect((await alice.post('/api/v1/channels', { name: 'local' })).status).toBe(201);
      expect((await alice.post('/api/v1/channels/local/messages', { content: 'the embedded index finds this' })).status).toBe(201);
      expect((await alice.post('/api/v1/channels/local/messages', { content: 'and not that' })).status).toBe(201);
      await t.app.get(SearchIndexMaintainer).whenSettled();
      const res = await alice.get('/api/v1/search?q=finds');
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual([expect.objectContaining({ channel: 'local', seq: 1, snippet: expect.stringContaining('«finds»') })]);
    } finally {
      await t.close();
    }
  });
});

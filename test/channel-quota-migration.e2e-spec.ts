import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { hashToken } from '../apps/channel-service/src/auth/tokens';
import { createApp } from '../apps/channel-service/src/bootstrap';
import { loadConfig } from '../apps/channel-service/src/config/app-config';
import { dataSourceOptions, MIGRATIONS } from '../migrations/data-source';
import { ChannelQuotaCounter1765700000000 } from '../migrations/1765700000000-channel-quota-counter';
import { ApiClient } from './support/http';
import { createTestDatabase } from './support/test-database';
import { TEST_ADMIN_TOKEN } from './support/test-app';

const QUOTA = 4;
const AGENT_TOKEN = 'qh_quota-migration-agent-token-0123456789';

async function migrate(url: string, migrations: typeof MIGRATIONS): Promise<void> {
  const ds = new DataSource({ ...dataSourceOptions(url, 1), migrations });
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'all' });
  } finally {
    await ds.destroy();
  }
}

/** A database whose agents already created channels when the quota counter arrives: each agent's count is backfilled. */
describe('the channel quota counter is backfilled from the channels each agent created', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pg: Client;
  let app: NestFastifyApplication | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('quotacounter');
    await migrate(db.url, MIGRATIONS.slice(0, MIGRATIONS.indexOf(ChannelQuotaCounter1765700000000)));
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    await pg.query(`INSERT INTO agents (name, token_hash) VALUES ('ann', $1), ('ben', 'unused-hash')`, [hashToken(AGENT_TOKEN)]);
    for (const [name, by] of [['a1', 'ann'], ['a2', 'ann'], ['a3', 'ann'], ['b1', 'ben'], ['x1', 'admin']]) {
      await pg.query(`INSERT INTO channels (name, summary_threshold, summariser, created_by) VALUES ($1, 20, 'heuristic', $2)`, [name, by]);
      await pg.query(`INSERT INTO channel_summaries (channel_id) SELECT id FROM channels WHERE name = $1`, [name]);
    }
    await migrate(db.url, MIGRATIONS);
  });
  afterAll(async () => {
    await app?.close();
    await pg?.end();
    await db?.drop();
  });

  it('counts each agent\'s channels, and the quota holds from there', async () => {
    const counts = (await pg.query(`SELECT name, channels_created FROM agents ORDER BY name`)).rows;
    expect(counts).toEqual([
      { name: 'ann', channels_created: 3 },
      { name: 'ben', channels_created: 1 },
    ]);
    const config = loadConfig({ DATABASE_URL: db.url, QHORUS_ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', QHORUS_MAX_CHANNELS_PER_AGENT: String(QUOTA) });
    app = await createApp(config);
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    const ann = new ApiClient(`http://127.0.0.1:${port}`, AGENT_TOKEN);
    expect((await ann.post('/api/v1/channels', { name: 'a4' })).status).toBe(201);
    expect((await ann.post('/api/v1/channels', { name: 'a5' })).status).toBe(403);
  });
});

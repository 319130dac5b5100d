import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { hashToken } from '../apps/channel-service/src/auth/tokens';
import { ChannelQuotaCounter1765700000000 } from '../migrations/1765700000000-channel-quota-counter';
import { ApiClient } from './support/http';
import { migrate, MIGRATIONS, serveDatabase } from './support/migrations';
import { createTestDatabase } from './support/test-database';

const QUOTA = 4;
const AGENT_TOKEN = 'qh_quota-migration-agent-token-0123456789';

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
    const served = await serveDatabase(db.url, { QHORUS_MAX_CHANNELS_PER_AGENT: String(QUOTA) });
    app = served.app;
    const ann = new ApiClient(served.baseUrl, AGENT_TOKEN);
    expect((await ann.post('/api/v1/channels', { name: 'a4' })).status).toBe(201);
    expect((await ann.post('/api/v1/channels', { name: 'a5' })).status).toBe(403);
  });
});

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../apps/channel-service/src/bootstrap';
import { loadConfig } from '../apps/channel-service/src/config/app-config';
import { LongPollWaits } from '../apps/channel-service/src/message-store/long-poll-waits';
import { ApiClient, waitFor } from './support/http';
import { connectMcp, useTool } from './support/mcp-client';

/**
 * The long poll on the embedded default (PGlite, no Redis): woken in process. PGlite has one
 * connection, so the post that wakes the waits can only get through if no wait holds it.
 */
describe('long poll on the embedded default', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'qhorus-embedded-wait-'));
  let app: NestFastifyApplication;
  let admin: ApiClient;

  beforeAll(async () => {
    app = await createApp(loadConfig({ QHORUS_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    admin = new ApiClient(`http://127.0.0.1:${port}`, readFileSync(join(dataDir, 'admin-token'), 'utf8').trim());
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('wakes REST and MCP waits in process with a post, holding no database connection meanwhile', async () => {
    const agent = async (name: string) => admin.as((await admin.post('/api/v1/agents', { name })).body.token);
    const [alice, bob] = [await agent('alice'), await agent('bob')];
    await alice.post('/api/v1/channels', { name: 'local' });
    const bobMcp = await connectMcp(admin.baseUrl, bob.token);
    try {
      const rest = bob.get('/api/v1/channels/local/messages?afterSeq=0&waitMs=20000&target=bob');
      const mcp = useTool(bobMcp, 'wait_for_messages', { channel: 'local', addressed_to_me: true, timeout_s: 20 });
      await waitFor(async () => app.get(LongPollWaits).sleepingCount === 2, 'two sleeping waits');
      // While both wait, the one connection serves other requests.
      expect((await alice.get('/api/v1/channels/local')).status).toBe(200);
      const query = (await alice.post('/api/v1/channels/local/messages', { type: 'QUERY', content: 'bob, status?', target: 'bob' })).body;
      expect((await rest).body.map((m: any) => m.seq)).toEqual([query.seq]);
      expect((await mcp).messages.map((m: any) => m.seq)).toEqual([query.seq]);
    } finally {
      await bobMcp.close();
    }
  });
});

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../apps/channel-service/src/bootstrap';
import { loadConfig } from '../apps/channel-service/src/config/app-config';
import { RetentionSweepService } from '../apps/channel-service/src/retention/retention-sweep.service';
import { ApiClient } from './support/http';

const ADMIN_TOKEN = 'qha_embedded-lifecycle-0123456789';

/**
 * Retention, archive and export on the embedded default (PGlite, one connection, in-process
 * jobs): the pass's transaction (with its SKIP LOCKED query) runs there as on Postgres.
 */
describe('retention, archive and export on the embedded default', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'qhorus-lifecycle-'));
  let app: NestFastifyApplication;
  let alice: ApiClient;

  beforeAll(async () => {
    app = await createApp(loadConfig({ QHORUS_DATA_DIR: dataDir, QHORUS_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'silent', QHORUS_RETENTION_SWEEP_MS: '3600000' }));
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    const admin = new ApiClient(`http://127.0.0.1:${port}`, ADMIN_TOKEN);
    alice = admin.as((await admin.post('/api/v1/agents', { name: 'alice' })).body.token);
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a pass trims to the summary version, an archived channel refuses posts, the export streams what is kept', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'small', summaryThreshold: 1000, retention: { maxMessages: 2 } })).status).toBe(201);
    const batch = (n: number) => ({ messages: Array.from({ length: n }, (_, i) => ({ type: 'STATUS', content: `m${i}` })) });
    expect((await alice.post('/api/v1/channels/small/messages/batch', batch(6))).status).toBe(201);
    expect((await alice.put('/api/v1/channels/small/summary', { text: 'six' })).status).toBe(200);
    expect((await alice.post('/api/v1/channels/small/messages/batch', batch(2))).status).toBe(201);
    const pass = await app.get(RetentionSweepService).pass();
    expect(pass).toMatchObject({ channels: 1, messages: 6 });
    expect((await alice.get('/api/v1/channels/small')).body).toMatchObject({ firstSeq: 7, lastSeq: 8 });

    expect((await alice.post('/api/v1/channels/small/archive')).status).toBe(200);
    const refused = await alice.post('/api/v1/channels/small/messages', { type: 'STATUS', content: 'late' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/archived/);

    const res = await fetch(`${alice.baseUrl}/api/v1/channels/small/export`, { headers: { authorization: `Bearer ${alice.token}` } });
    const lines = (await res.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.kind, l.seq])).toEqual([
      ['channel', undefined],
      ['message', 7],
      ['message', 8],
      ['summary', undefined],
    ]);
    expect(lines[0]).toMatchObject({ archived: true, firstSeq: 7 });
  });
});

import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { waitFor } from './support/http';
import { startTestApp, TestApp } from './support/test-app';
import { logLines } from './support/log-lines';

// At LOG_LEVEL=warn the per-request logger is not installed (it costs every request; see
// docs/benchmarks.md): failed requests must still be logged, with their request id.
describe('request logs at LOG_LEVEL=warn', () => {
  const { entries: lines, stream: logs } = logLines();
  let t: TestApp;

  beforeAll(async () => {
    // nestjs-pino's process-wide logger is made by the first app of the process: start afresh.
    __resetOutOfContextForTests();
    t = await startTestApp('quiet-logs', { inProcessQueue: true, logDestination: logs, env: { LOG_LEVEL: 'warn' } });
  });
  afterAll(() => t?.close());

  it('logs a failed request at warn with its id, status and url, and says nothing about successful ones', async () => {
    const agent = await t.agent('quiet');
    expect((await agent.post('/api/v1/channels', { name: 'quiet-room' })).status).toBe(201);
    expect((await agent.get('/api/v1/channels/quiet-room/summary', { 'x-request-id': 'req-fine' })).status).toBe(200);
    expect((await agent.get('/api/v1/channels/no-such-room/summary', { 'x-request-id': 'req-missing' })).status).toBe(404);

    const failed = await waitFor(async () => lines.find((e) => e.req?.id === 'req-missing'), 'the failed request to be logged');
    expect(failed).toMatchObject({ level: 40, req: { method: 'GET', url: '/api/v1/channels/no-such-room/summary' }, res: { statusCode: 404 } });
    expect(typeof failed.responseTime).toBe('number');
    expect(lines.some((e) => e.req?.id === 'req-fine')).toBe(false);
    expect(JSON.stringify(lines)).not.toContain(agent.token!);
  });

  it('never logs a credential a client put in the URL (a token, a key as a query parameter)', async () => {
    const agent = await t.agent('leaky');
    const url = `/api/v1/channels/quiet-room/messages?token=${agent.token}&access_token=${agent.token}&api_key=sk-12345&afterSeq=0`;
    expect((await agent.get(url, { 'x-request-id': 'req-leaky' })).status).toBe(400); // the query parameters are not the API's
    const logged = await waitFor(async () => lines.find((e) => e.req?.id === 'req-leaky'), 'the refused request to be logged');
    expect(logged.req.url).toBe('/api/v1/channels/quiet-room/messages?token=[redacted]&access_token=[redacted]&api_key=[redacted]&afterSeq=0');
    expect(JSON.stringify(lines)).not.toContain(agent.token!);
    expect(JSON.stringify(lines)).not.toContain('sk-12345');
  });
});

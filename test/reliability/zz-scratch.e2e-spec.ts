import { startTestApp, TestApp } from '../support/test-app';
import { routeRecorder } from './app-routes';

describe('scratch', () => {
  let t: TestApp;
  const rec = routeRecorder();
  beforeAll(async () => { t = await startTestApp('scratch', { beforeListen: rec.beforeListen }); });
  afterAll(() => t?.close());
  it('probes', async () => {
    console.log(rec.routes.map((r) => `${r.method} ${r.url}`).join('\n'));
  });
});

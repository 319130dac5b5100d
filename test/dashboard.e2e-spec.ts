import { Browser, chromium, Page } from 'playwright-core';
import { getSummary, waitForQuietSummary, waitForSummary } from './support/channel-helpers';
import { ApiClient } from './support/http';
import { chromiumExecutablePath, CHROMIUM_ARGS } from './support/chromium-browser';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';

/** Set to a file path to save a screenshot of the channel page (docs/dashboard.png is made so). */
const SCREENSHOT_PATH = process.env.QHORUS_DASHBOARD_SCREENSHOT;
const THRESHOLD = 8;
const UI_TIMEOUT_MS = 30_000;

describe('dashboard in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let planner: ApiClient, coder: ApiClient, reviewer: ApiClient, tester: ApiClient;
  const channel = 'release-42';

  beforeAll(async () => {
    t = await startTestApp('dashboard');
    [planner, coder, reviewer, tester] = await Promise.all(['planner', 'coder', 'reviewer', 'tester'].map((n) => t.agent(n)));
    const created = await planner.post('/api/v1/channels', { name: channel, description: 'Ship release 42: migration, API change, tests', summaryThreshold: THRESHOLD });
    expect(created.status).toBe(201);
    const say = async (who: ApiClient, body: Record<string, unknown>) => {
      const res = await who.post(`/api/v1/channels/${channel}/messages`, body);
      if (res.status !== 201) throw new Error(`post failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    await say(planner, { type: 'COMMAND', content: 'Write the migration for the new orders table', correlationId: 'cmd-migration', topic: 'migration' });
    await say(coder, { type: 'STATUS', content: 'Migration drafted; running it against a copy of prod', topic: 'migration' });
    await say(coder, { type: 'QUERY', content: 'Does the migration need a backfill for existing rows?', correlationId: 'q-backfill', topic: 'migration' });
    await say(coder, { type: 'DONE', content: 'Migration merged', correlationId: 'cmd-migration', topic: 'migration' });
    await say(planner, { type: 'HANDOFF', content: 'Over to you for review', target: 'reviewer', correlationId: 'h-review' });
    await say(reviewer, { type: 'STATUS', content: 'Reviewing the diff now' });
    await say(tester, { type: 'FAILURE', content: 'Integration suite fails: orders_test times out', correlationId: 'run-17' });
    await say(coder, { type: 'QUERY', content: 'Which fixture does orders_test use?', correlationId: 'q-fixture' });
    await waitForSummary(planner, channel, (s) => s.version >= 1, 'the first summary');
    await waitForQuietSummary(planner, channel);

    browser = await chromium.launch({ executablePath: await chromiumExecutablePath(), args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    page.setDefaultTimeout(UI_TIMEOUT_MS);
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('asks for a token, refuses a wrong one, then lists the channel with its backlog and summary state', async () => {
    await page.goto(`${t.baseUrl}/`);
    await page.getByLabel('Bearer token').fill('qh_not-a-real-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That token was rejected').waitFor();

    await page.getByLabel('Bearer token').fill(TEST_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const row = page.locator(`#channels-table tr[data-channel="${channel}"]`);
    await row.waitFor();
    const summary = await getSummary(planner, channel);
    expect(await row.locator('[data-col="backlog"]').textContent()).toBe(String(summary.pending));
    expect(await row.locator('[data-col="summary"]').textContent()).toContain(`v${summary.version}`);
  });

  it('shows the channel: a typed, threaded timeline, the summary with annotations and open threads, and the history with tiers', async () => {
    await page.getByRole('link', { name: channel }).click();
    await page.getByRole('heading', { name: channel }).waitFor();
    const summary = await getSummary(planner, channel);

    await page.waitForFunction((n) => (globalThis as any).document.querySelectorAll('#timeline .message').length === n, summary.lastSeq);
    for (const type of ['COMMAND', 'QUERY', 'DONE', 'HANDOFF', 'FAILURE']) {
      expect(await page.locator(`#timeline .type-${type}`).count()).toBeGreaterThan(0);
    }
    expect(await page.locator('#timeline .thread', { hasText: 'q-backfill' }).count()).toBe(1);
    expect(await page.locator('#timeline .message', { hasText: '→ reviewer' }).count()).toBe(1);

    await page.waitForFunction((v) => (globalThis as any).document.querySelector('#summary-text')?.dataset.version === String(v), summary.version);
    expect(await page.locator('#summary-text').textContent()).toBe(summary.text);
    const tierRow = page.locator('#annotations tr', { has: page.locator('td', { hasText: /^tier$/ }) });
    expect(await tierRow.locator('td').nth(1).textContent()).toBe(summary.annotations.tier);

    // The open requests the summary reports are listed and highlighted in the timeline.
    const open: { correlationId: string }[] = JSON.parse(summary.annotations.openThreads);
    expect(open.map((o) => o.correlationId)).toContain('q-backfill');
    for (const { correlationId } of open) {
      expect(await page.locator('#open-threads li', { hasText: correlationId }).count()).toBe(1);
      expect(await page.locator(`#timeline .message.open-thread[data-thread="${correlationId}"]`).count()).toBeGreaterThan(0);
    }
    expect(await page.locator('#timeline .message.open-thread[data-thread="cmd-migration"]').count()).toBe(0);

    const history = (await planner.get(`/api/v1/channels/${channel}/summary/history`)).body;
    const rows = page.locator('#history tbody tr');
    expect(await rows.count()).toBe(history.length);
    expect(await rows.first().locator('td').nth(1).textContent()).toBe(history[0].annotations.tier);
  });

  it('updates without a reload when a message crosses the threshold, over the live event stream', async () => {
    await page.locator('#live-status[data-mode="live"]').waitFor();
    await page.evaluate(() => ((globalThis as any).__sameDocument = true));
    const before = await waitForQuietSummary(planner, channel);

    for (let i = 0; i < THRESHOLD - before.pending; i++) {
      const who = [coder, reviewer, tester][i % 3];
      await who.post(`/api/v1/channels/${channel}/messages`, { type: 'STATUS', content: `checkpoint ${i + 1}: ${['tests green', 'review comments addressed', 'fixture fixed'][i % 3]}` });
    }
    await reviewer.post(`/api/v1/channels/${channel}/messages`, { type: 'RESPONSE', content: 'orders_test uses the large-orders fixture', correlationId: 'q-fixture' });

    const after = await waitForSummary(planner, channel, (s) => s.version > before.version, 'the summary to move on');
    await page.waitForFunction((v) => Number((globalThis as any).document.querySelector('#summary-text')?.dataset.version) >= v, after.version);
    const lastSeq = (await getSummary(planner, channel)).lastSeq;
    await page.locator(`#m-${lastSeq}`).waitFor();
    expect(await page.locator(`#m-${lastSeq}`).textContent()).toContain('large-orders fixture');
    expect(await page.evaluate(() => (globalThis as any).__sameDocument)).toBe(true); // no reload happened

    if (SCREENSHOT_PATH) await page.screenshot({ path: SCREENSHOT_PATH, fullPage: false });
  });
});

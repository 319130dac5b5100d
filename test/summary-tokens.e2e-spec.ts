import { Message, SummaryResult } from '@qhorus/api';
import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Database } from '../apps/channel-service/src/database/database';
import { projectedMessageTokens } from '../apps/channel-service/src/messages/message-token-estimate';
import { getSummary, waitForQuietSummary, waitForSummary } from './support/channel-helpers';
import { ApiClient } from './support/http';
import { callTool, connectMcp, useTool } from './support/mcp-client';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';

/** Far above any backlog here: only the token threshold (or a refresh) can trigger. */
const COUNT_THRESHOLD = 10_000;
const TOKEN_THRESHOLD = 200;
/** More than the page the old in-memory ledger read per query (1,000), so a scan would show. */
const LONG_CHANNEL = 1_200;
const POST_CONCURRENCY = 8;
/** Queries one /context may issue: channel, slot, tail (token figures come with them). */
const CONTEXT_QUERY_BOUND = 4;
const PAGE = 1000;
/** Background rounds (sweep, thread ticks) would add their queries to the count: kept out of the way. */
const NO_BACKGROUND_MS = String(10 * 60_000);

class RecordingSummariser implements ContentSummariser<Message> {
  readonly batches: number[][] = [];
  async summarise(items: readonly Message[], previous?: SummaryResult | null): Promise<SummaryResult> {
    this.batches.push(items.map((m) => m.seq));
    return { text: `${this.batches.length} batches`, annotations: { ...previous?.annotations } };
  }
}

/** Every message of a channel, EVENTs included, in seq order. */
async function allMessages(client: ApiClient, channel: string, afterSeq = 0): Promise<Message[]> {
  const all: Message[] = [];
  for (let after = afterSeq; ; ) {
    const res = await client.get(`/api/v1/channels/${channel}/messages?afterSeq=${after}&limit=${PAGE}&includeEvents=true`);
    expect(res.status).toBe(200);
    const page = res.body as Message[];
    all.push(...page);
    if (page.length < PAGE) return all;
    after = page[page.length - 1].seq;
  }
}

const tokensOf = (messages: Message[]) => messages.reduce((sum, m) => sum + projectedMessageTokens(m), 0);

describe('token-aware summaries: summaryThresholdTokens, pendingTokens, /context from stored figures', () => {
  let t: TestApp;
  let alice: ApiClient;
  let mcp: Client;
  const recording = new RecordingSummariser();

  beforeAll(async () => {
    t = await startTestApp('summarytokens', {
      summarisers: { recording },
      env: { QHORUS_SWEEP_INTERVAL_MS: NO_BACKGROUND_MS, QHORUS_THREAD_TICK_MS: NO_BACKGROUND_MS },
    });
    alice = await t.agent('alice');
    await t.agent('bob'); // a target must be a registered agent
    mcp = await connectMcp(t.baseUrl, TEST_ADMIN_TOKEN);
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
  });

  const post = async (channel: string, body: Record<string, unknown>): Promise<Message> => {
    const res = await alice.post(`/api/v1/channels/${channel}/messages`, body);
    expect(res.status).toBe(201);
    return res.body;
  };

  it('triggers a summary once the pending messages reach the token threshold, long before the count threshold', async () => {
    const created = await alice.post('/api/v1/channels', {
      name: 'wordy',
      summariser: 'recording',
      summaryThreshold: COUNT_THRESHOLD,
      summaryThresholdTokens: TOKEN_THRESHOLD,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ summaryThreshold: COUNT_THRESHOLD, summaryThresholdTokens: TOKEN_THRESHOLD });

    const posted: Message[] = [];
    while (tokensOf(posted) < TOKEN_THRESHOLD) {
      posted.push(await post('wordy', { type: 'STATUS', content: `Long progress report ${posted.length}: ${'the build is still compiling '.repeat(4)}` }));
      if (tokensOf(posted) < TOKEN_THRESHOLD) expect((await getSummary(alice, 'wordy')).version).toBe(0);
    }
    const last = posted[posted.length - 1].seq;
    expect(last).toBeLessThan(COUNT_THRESHOLD);
    const summary = await waitForSummary(alice, 'wordy', (s) => s.version === 1, 'the token-triggered summary');
    expect(summary).toMatchObject({ coversThroughSeq: last, pending: 0, pendingTokens: 0 });
    expect(recording.batches).toEqual([posted.map((m) => m.seq)]);
  });

  it('reports pendingTokens as the projection cost of the messages after the watermark (EVENT free, CJK counted per character)', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'ledger', summaryThreshold: COUNT_THRESHOLD, summariser: 'recording' })).status).toBe(201);
    await post('ledger', { type: 'QUERY', content: 'Which release date did we pick?', target: 'bob', correlationId: 'date-1' });
    const empty = await getSummary(alice, 'ledger');
    expect(empty.pendingTokens).toBe(tokensOf(await allMessages(alice, 'ledger')));

    expect((await alice.put('/api/v1/channels/ledger/summary', { text: 'A date was asked for.' })).status).toBe(200);
    expect(await getSummary(alice, 'ledger')).toMatchObject({ pending: 0, pendingTokens: 0 });

    await post('ledger', { type: 'RESPONSE', content: '发布日期定在星期五，会议已经决定了。', correlationId: 'date-1', inReplyTo: 1 });
    await post('ledger', { type: 'EVENT', content: 'telemetry '.repeat(50) });
    await post('ledger', { type: 'DONE', content: 'Done.', correlationId: 'date-1' });
    await post('ledger', { type: 'STATUS', content: 'リリースは金曜日です and the notes are ready' });
    const summary = await getSummary(alice, 'ledger');
    const pending = await allMessages(alice, 'ledger', summary.coversThroughSeq);
    expect(summary.pending).toBe(4);
    expect(pending.map((m) => m.type)).toContain('EVENT');
    expect(summary.pendingTokens).toBe(tokensOf(pending));
    expect(summary.pendingTokens).toBe(tokensOf(pending.filter((m) => m.type !== 'EVENT')));
  });

  it('turns the token trigger on and off with PATCH and configure_channel_summary (off: nothing triggers by tokens)', async () => {
    const on = await alice.patch('/api/v1/channels/ledger', { summaryThresholdTokens: 1 });
    expect(on).toMatchObject({ status: 200, body: { summaryThresholdTokens: 1 } });
    // Already past 1 token: the reconfiguration itself queues the update.
    await waitForSummary(alice, 'ledger', (s) => s.pending === 0, 'the summary queued by the reconfiguration');
    const off = await useTool(mcp, 'configure_channel_summary', { channel: 'ledger', update_after_tokens: null });
    expect(off).toMatchObject({ summaryThresholdTokens: null });
    await post('ledger', { type: 'STATUS', content: 'one more note that no trigger picks up' });
    expect(await waitForQuietSummary(alice, 'ledger', 700)).toMatchObject({ pending: 1 });
    const viaMcp = await useTool(mcp, 'configure_channel_summary', { channel: 'ledger', update_after_tokens: 5 });
    expect(viaMcp.summaryThresholdTokens).toBe(5);
    await waitForSummary(alice, 'ledger', (s) => s.pending === 0 && s.pendingTokens === 0, 'the summary after the MCP reconfiguration');
  });

  it.each([0, -3, 1.5, 'many', true, [], {}, 10_000_001])('refuses summaryThresholdTokens %p with a 400 naming the field (REST create and PATCH, MCP)', async (value) => {
    const created = await alice.post('/api/v1/channels', { name: 'bad-tokens', summaryThresholdTokens: value });
    expect(created.status).toBe(400);
    expect(created.body.details.map((d: { field: string }) => d.field)).toEqual(['summaryThresholdTokens']);
    const patched = await alice.patch('/api/v1/channels/ledger', { summaryThresholdTokens: value });
    expect(patched.status).toBe(400);
    expect(patched.body.details.map((d: { field: string }) => d.field)).toEqual(['summaryThresholdTokens']);
    if (value !== 0) {
      // Over MCP 0 turns the trigger off (a portable schema has no null): mcp-contract.e2e-spec.
      const tool = await callTool(mcp, 'configure_channel_summary', { channel: 'ledger', update_after_tokens: value });
      expect(tool).toMatchObject({ isError: true, body: { statusCode: 400 } });
      expect(tool.text).toMatch(/summaryThresholdTokens|update_after_tokens/);
    }
    expect((await alice.get('/api/v1/channels/bad-tokens/summary')).status).toBe(404);
  });

  it('answers /context on a long channel with a bounded number of queries, historyTokens from the stored figures', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'long', summaryThreshold: COUNT_THRESHOLD, summariser: 'recording' })).status).toBe(201);
    expect((await alice.post('/api/v1/channels', { name: 'short', summaryThreshold: COUNT_THRESHOLD, summariser: 'recording' })).status).toBe(201);
    for (let i = 0; i < 3; i++) await post('short', { type: 'STATUS', content: `short ${i}` });
    for (let i = 0; i < LONG_CHANNEL; i += POST_CONCURRENCY) {
      await Promise.all(
        Array.from({ length: Math.min(POST_CONCURRENCY, LONG_CHANNEL - i) }, (_, k) =>
          post('long', { type: (i + k) % 10 === 0 ? 'EVENT' : 'STATUS', content: `step ${i + k}: 进度 ${'ok '.repeat((i + k) % 7)}` }),
        ),
      );
    }
    const db = t.app.get(Database);
    // The spy sees every query of the process: a background one (the sweep, the webhook poll) may
    // fall into a request's window and only adds, so the fewest of a few requests is the request's own.
    const QUERY_COUNT_TRIES = 3;
    const queriesOf = async (channel: string) => {
      await alice.get(`/api/v1/channels/${channel}/summary`); // the agent's token is cached from here on
      let fewest: { queries: number; context: any } | null = null;
      for (let i = 0; i < QUERY_COUNT_TRIES; i++) {
        const spy = jest.spyOn(db, 'query');
        try {
          const res = await alice.get(`/api/v1/channels/${channel}/context`);
          expect(res.status).toBe(200);
          if (fewest === null || spy.mock.calls.length < fewest.queries) fewest = { queries: spy.mock.calls.length, context: res.body };
        } finally {
          spy.mockRestore();
        }
      }
      return fewest!;
    };
    const long = await queriesOf('long');
    const short = await queriesOf('short');
    expect(long.queries).toBeLessThanOrEqual(CONTEXT_QUERY_BOUND);
    expect(long.queries).toBe(short.queries);
    expect(long.context.historyTokens).toBe(tokensOf(await allMessages(alice, 'long')));
    expect(short.context.historyTokens).toBe(tokensOf(await allMessages(alice, 'short')));
    expect((await getSummary(alice, 'long')).pendingTokens).toBe(long.context.historyTokens);
  });
});

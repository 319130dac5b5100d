import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { Message, shownContent, SummaryResult } from '@qhorus/api';
import { Database } from '../apps/channel-service/src/database/database';
import { ApiClient } from './support/http';
import { waitForQuietSummary, waitForSummary } from './support/channel-helpers';
import { uniqueSecret } from './support/lifecycle-scenario';
import { startTestApp, TestApp } from './support/test-app';

const RACING_POSTS = 12;

/**
 * A summariser that appends each message to the previous text (so anything it ever committed
 * stays in every later version) and, the first time a batch carries `secret`, holds the job
 * until the test lets it go.
 */
class GatedAppendingSummariser implements ContentSummariser<Message> {
  private release!: () => void;
  private readonly gate = new Promise<void>((r) => (this.release = r));
  private reached!: () => void;
  readonly reachedSecret = new Promise<void>((r) => (this.reached = r));
  heldOnce = false;

  constructor(private readonly secret: string) {}

  open(): void {
    this.release();
  }

  async summarise(items: readonly Message[], previous?: SummaryResult | null): Promise<SummaryResult> {
    const lines = items.map((m) => `#${m.seq} ${m.sender}: ${shownContent(m)}`);
    if (!this.heldOnce && items.some((m) => m.content.includes(this.secret))) {
      this.heldOnce = true;
      this.reached();
      await this.gate;
    }
    return { text: [previous?.text, ...lines].filter(Boolean).join('\n'), annotations: { ...previous?.annotations } };
  }
}

/**
 * Issue 29's concurrency proof: a redaction that commits while a summary job is summarising the
 * very message, with posts racing it, ends with no summary text derived from the content — the
 * job's compare-and-set loses to the redaction's new slot version and it replays from the
 * rewound watermark over the tombstone.
 */
describe('redaction racing posts and a running summary job', () => {
  const secret = uniqueSecret();
  const gated = new GatedAppendingSummariser(secret);
  let t: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;

  beforeAll(async () => {
    t = await startTestApp('redactrace', { summarisers: { gated } });
    [alice, bob] = [await t.agent('alice'), await t.agent('bob')];
  });
  afterAll(async () => {
    gated.open();
    await t?.close();
  });

  it('the job that read the content loses its compare-and-set; every post is kept; no version ever holds the content', async () => {
    const c = '/api/v1/channels/race';
    expect((await alice.post('/api/v1/channels', { name: 'race', summariser: 'gated', summaryThreshold: 1 })).status).toBe(201);
    await alice.post(`${c}/messages`, { type: 'STATUS', content: 'before the secret' });
    await waitForSummary(alice, 'race', (s) => s.coversThroughSeq === 1, 'the first summary');
    const leaked = await alice.post(`${c}/messages`, { type: 'STATUS', content: `token ${secret}` });
    await gated.reachedSecret; // the job has read the content and is summarising it now

    const posts = Array.from({ length: RACING_POSTS }, (_, i) => bob.post(`${c}/messages`, { type: 'STATUS', content: `racing ${i}` }));
    const redaction = alice.post(`${c}/messages/${leaked.body.seq}/redact`, { reason: 'token pasted' });
    const [redacted, ...posted] = await Promise.all([redaction, ...posts]);
    expect(redacted.status).toBe(200);
    expect(posted.map((p) => p.status)).toEqual(Array(RACING_POSTS).fill(201));
    gated.open(); // the job now tries to commit text with the secret

    const lastSeq = 2 + RACING_POSTS;
    await waitForSummary(alice, 'race', (s) => s.coversThroughSeq === lastSeq, 'the summary replayed to the last post');
    const summary = await waitForQuietSummary(alice, 'race');
    expect(summary.text).not.toContain(secret);
    expect(summary.text).toContain(`#${leaked.body.seq} alice: [redacted]`);
    for (let i = 0; i < RACING_POSTS; i++) expect(summary.text).toContain(`racing ${i}`);
    const messages = (await alice.get(`${c}/messages`)).body as { seq: number }[];
    expect(messages.map((m) => m.seq)).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));

    const db = t.app.get(Database);
    const copies = await db.query(
      `SELECT 'slot' AS at FROM channel_summaries WHERE text LIKE $1
       UNION ALL SELECT 'history' FROM channel_summary_history WHERE text LIKE $1
       UNION ALL SELECT 'message' FROM messages WHERE content LIKE $1`,
      [`%${secret}%`],
    );
    expect(copies).toEqual([]);
    expect(gated.heldOnce).toBe(true);
  });
});

import { CONFIG_DEFAULTS } from '../apps/channel-service/src/config/config-defaults';
import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { Message, SummaryResult } from '@qhorus/api';
import { ApiClient } from './support/http';
import { postMany, waitForQuietSummary, waitForSummary } from './support/channel-helpers';
import { startTestApp, TestApp } from './support/test-app';
import { ChannelsRepository } from '../apps/channel-service/src/channels/channels.repository';
import { SummaryRepository } from '../apps/channel-service/src/summary/summary.repository';

const CHUNK_SIZE = 4;
const seqs = (from: number, through: number) => Array.from({ length: through - from + 1 }, (_, i) => from + i);

/** Records every batch it is handed; its text lists the batches so far. */
class RecordingSummariser implements ContentSummariser<Message> {
  readonly batches: number[][] = [];
  async summarise(items: readonly Message[], previous?: SummaryResult | null): Promise<SummaryResult> {
    this.batches.push(items.map((m) => m.seq));
    return { text: `${previous?.text ?? ''} [${items[0].seq}-${items[items.length - 1].seq}]`.trim(), annotations: {} };
  }
}

/**
 * A backlog longer than QHORUS_SUMMARY_CHUNK_SIZE is summarised in chunks by one job: the first
 * chunk comes with the read that finds the channel due, the rest are read one by one, and each
 * chunk is its own committed version, so the work stays linear and every message is handed over
 * exactly once.
 */
describe('summary jobs over a backlog longer than one chunk', () => {
  let t: TestApp;
  let alice: ApiClient;
  const recording = new RecordingSummariser();

  beforeAll(async () => {
    t = await startTestApp('chunks', { summarisers: { recording }, env: { QHORUS_SUMMARY_CHUNK_SIZE: String(CHUNK_SIZE) } });
    alice = await t.agent('alice');
    expect((await alice.post('/api/v1/channels', { name: 'long', summaryThreshold: 10, summariser: 'recording' })).status).toBe(201);
  });
  afterAll(() => t?.close());

  it('hands a 10-message backlog over in chunks of 4, 4 and 2, each committed as a version', async () => {
    await postMany(alice, 'long', 10);
    const summary = await waitForSummary(alice, 'long', (s) => s.coversThroughSeq === 10, 'the first 10 messages summarised');
    expect(recording.batches).toEqual([seqs(1, 4), seqs(5, 8), seqs(9, 10)]);
    expect(summary).toMatchObject({ text: '[1-4] [5-8] [9-10]', version: 3, pending: 0 });
    const history = (await alice.get('/api/v1/channels/long/summary/history')).body;
    expect(history.map((h: any) => [h.coversFromSeq, h.coversThroughSeq])).toEqual([
      [9, 10],
      [5, 8],
      [1, 4],
    ]);
  });

  it('starts the next job from the new watermark, and never hands a message over twice', async () => {
    await postMany(alice, 'long', 9);
    await postMany(alice, 'long', 1);
    await waitForSummary(alice, 'long', (s) => s.coversThroughSeq === 20, 'messages 11-20 summarised');
    await waitForQuietSummary(alice, 'long');
    expect(recording.batches.slice(3)).toEqual([seqs(11, 14), seqs(15, 18), seqs(19, 20)]);
    expect(recording.batches.flat()).toEqual(seqs(1, 20));
  });

  it('leaves a backlog under the threshold alone until a refresh asks for it', async () => {
    await postMany(alice, 'long', 5);
    expect(await waitForQuietSummary(alice, 'long')).toMatchObject({ coversThroughSeq: 20, pending: 5 });
    expect((await alice.post('/api/v1/channels/long/summary/refresh', {})).status).toBeLessThan(300);
    await waitForSummary(alice, 'long', (s) => s.coversThroughSeq === 25, 'the refreshed tail summarised');
    expect(recording.batches.slice(6)).toEqual([seqs(21, 24), [25]]);
  });

  it('learns from each commit whether the channel is still due, so no extra read follows a job', async () => {
    // No job of its own runs here (threshold far away): the repository is driven directly.
    expect((await alice.post('/api/v1/channels', { name: 'manual', summaryThreshold: 10_000, summariser: 'recording' })).status).toBe(201);
    await postMany(alice, 'manual', 5);
    const channel = (await t.app.get(ChannelsRepository).findByName('manual'))!;
    const summaries = t.app.get(SummaryRepository);
    const step = (expectedVersion: number, from: number, through: number) =>
      summaries.commit({ channelId: channel.id, historyKeep: CONFIG_DEFAULTS.QHORUS_SUMMARY_HISTORY_KEEP, expectedVersion, result: { text: `${from}-${through}`, annotations: {} }, coversFromSeq: from, coversThroughSeq: through, updatedBy: 'test' });

    expect((await step(0, 1, 2)).dueAgain).toBe(false); // 3 pending, threshold 10,000
    await summaries.requestRefresh(channel.id); // asks for everything through seq 5
    const partial = await step(1, 3, 3);
    expect(partial).toMatchObject({ dueAgain: true, slot: { version: 2, coversThroughSeq: 3 } });
    expect(await summaries.isDue(channel.id)).toBe(true);
    const done = await step(2, 4, 5);
    expect(done.dueAgain).toBe(false);
    expect(await summaries.isDue(channel.id)).toBe(false);
  });

  it("reads a job's start (channel, slot, first chunk) in one statement, and commits a slot equal to a fresh read", async () => {
    expect((await alice.post('/api/v1/channels', { name: 'start', summaryThreshold: 10_000, summariser: 'recording' })).status).toBe(201);
    await postMany(alice, 'start', 2);
    const channel = (await t.app.get(ChannelsRepository).findByName('start'))!;
    const summaries = t.app.get(SummaryRepository);
    const annotations = { openThreads: '[\n{"correlationId":"c-1","type":"QUERY","sender":"alice","seq":1}\n]', note: 'kept' };
    const { slot: committed } = await summaries.commit({
      channelId: channel.id,
      historyKeep: CONFIG_DEFAULTS.QHORUS_SUMMARY_HISTORY_KEEP,
      expectedVersion: 0,
      result: { text: 'first two', annotations },
      coversFromSeq: 1,
      coversThroughSeq: 2,
      updatedBy: 'test',
    });
    expect(committed).toEqual(await summaries.findSlot(channel.id));

    await postMany(alice, 'start', 5);
    await summaries.requestRefresh(channel.id);
    const due = (await summaries.findDue(channel.id, 3, { ms: 0, retry: true }))!;
    expect(due.channel).toMatchObject({ id: channel.id, name: 'start', lastSeq: 7, summaryThreshold: 10_000 });
    expect(due.slot).toEqual(committed);
    expect(due.firstChunk.map((m) => Number(m.seq))).toEqual([3, 4, 5]);
    expect(due.firstChunk.every((m) => m.sender === 'alice' && m.created_at instanceof Date)).toBe(true);
  });
});

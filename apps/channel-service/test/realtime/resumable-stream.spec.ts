import type { ServerResponse } from 'node:http';
import { ChannelStreamEvent, MESSAGE_POSTED, resyncStreamEvent, SUMMARY_UPDATED } from '../../src/realtime/channel-stream-event';
import { parseLastEventId } from '../../src/realtime/event-ids';
import { ReplayedMessage, ResumableStream, StreamHistory } from '../../src/realtime/resumable-stream';
import { SseStream } from '../../src/realtime/sse-stream';
import { FakeSseResponse } from './fake-sse-response';

/** Records the frames an SseStream writes. */
class FrameRecorder extends FakeSseResponse {
  /** [id, event] of every frame. */
  get frames(): [string, string][] {
    return this.chunks.map((c) => [/^id: (.*)$/m.exec(c)?.[1] ?? '', /^event: (.*)$/m.exec(c)?.[1] ?? '']);
  }
}

/** A channel's history in memory, as Postgres would answer (EVENT telemetry included). */
class History implements StreamHistory {
  messages: ReplayedMessage[] = [];
  summary: { version: number; data: Record<string, unknown> } | null = null;
  reads = 0;
  add(seq: number, telemetry = false): ChannelStreamEvent {
    const m = { seq, telemetry, data: { seq } };
    this.messages.push(m);
    return { channelId: '1', name: MESSAGE_POSTED, data: m.data, telemetry };
  }
  async messagesAfter(afterSeq: number, limit: number) {
    this.reads++;
    return this.messages.filter((m) => m.seq > afterSeq).slice(0, limit);
  }
  async currentSummary() {
    return this.summary;
  }
}

const summaryEvent = (version: number): ChannelStreamEvent => ({ channelId: '1', name: SUMMARY_UPDATED, data: { version }, telemetry: false });
const flush = () => new Promise((r) => setImmediate(r));

function setUp(afterSeq: number, summaryAfterVersion: number | null, includeEvents = false) {
  const res = new FrameRecorder();
  const history = new History();
  let overflowed = false;
  const stream = new ResumableStream(new SseStream(res as unknown as ServerResponse), history, { afterSeq, summaryAfterVersion }, includeEvents, () => (overflowed = true));
  return { res, history, stream, overflowed: () => overflowed };
}

describe('ResumableStream', () => {
  it('replays what was missed, then the newer summary, then live events held meanwhile: each seq once, in order', async () => {
    const { res, history, stream } = setUp(2, 1);
    for (const seq of [1, 2, 3, 4]) history.add(seq);
    history.summary = { version: 2, data: { version: 2 } };
    const replaying = stream.catchUp();
    // Arrive live while the replay reads: 4 is replayed already, 5 is new.
    stream.onEvent({ channelId: '1', name: MESSAGE_POSTED, data: { seq: 4 }, telemetry: false });
    stream.onEvent(history.add(5));
    await replaying;
    stream.onEvent(history.add(6));
    expect(res.frames).toEqual([
      ['3', 'message.posted'],
      ['4', 'message.posted'],
      ['4s2', 'summary.updated'],
      ['5', 'message.posted'],
      ['6', 'message.posted'],
    ]);
  });

  it('does not resend a summary the client named, and sends a newer live one once', async () => {
    const { res, history, stream } = setUp(0, 3);
    history.summary = { version: 3, data: { version: 3 } };
    await stream.catchUp();
    stream.onEvent(summaryEvent(3));
    stream.onEvent(summaryEvent(4));
    stream.onEvent(summaryEvent(4));
    expect(res.frames).toEqual([['0s4', 'summary.updated']]);
  });

  it('fills a gap in live events from history (an event lost between instances)', async () => {
    const { res, history, stream } = setUp(0, null);
    await stream.catchUp();
    stream.onEvent(history.add(1));
    history.add(2); // its live event never arrives
    stream.onEvent(history.add(3));
    await flush();
    stream.onEvent(history.add(4));
    expect(res.frames.map(([id]) => id)).toEqual(['1', '2', '3', '4']);
  });

  it('a resync reads history again: a post whose live event was lost on the bus arrives without a later post', async () => {
    const { res, history, stream } = setUp(0, null);
    await stream.catchUp();
    history.add(1); // its live event never arrives (the bus connection was away)
    stream.onEvent(resyncStreamEvent('1'));
    await flush();
    expect(res.frames.map(([id]) => id)).toEqual(['1']);
    // During a catch-up, a resync makes it read once more before going live.
    const second = setUp(0, null);
    const replaying = second.stream.catchUp();
    second.history.add(1);
    second.stream.onEvent(resyncStreamEvent('1'));
    await replaying;
    expect(second.res.frames.map(([id]) => id)).toEqual(['1']);
  });

  it('moves past a seq that does not exist rather than waiting for it forever', async () => {
    const { res, history, stream } = setUp(0, null);
    await stream.catchUp();
    stream.onEvent({ channelId: '1', name: MESSAGE_POSTED, data: { seq: 3 }, telemetry: false });
    history.messages = [];
    await flush();
    expect(res.frames.map(([id]) => id)).toEqual(['3']);
  });

  it('counts skipped telemetry in its position, so a summary id resumes after it', async () => {
    const { res, history, stream } = setUp(0, null);
    await stream.catchUp();
    stream.onEvent(history.add(1, true));
    stream.onEvent(summaryEvent(1));
    expect(res.frames).toEqual([['1s1', 'summary.updated']]);
  });

  it('gives up (the client resumes) when too many live events pile up during a replay', async () => {
    const { history, stream, overflowed } = setUp(0, null);
    const replaying = stream.catchUp();
    for (let seq = 1; seq <= 10_001; seq++) stream.onEvent(history.add(seq));
    expect(overflowed()).toBe(true);
    await replaying;
  });
});

describe('parseLastEventId', () => {
  it('reads a seq or a summary id, and nothing else', () => {
    expect(parseLastEventId('42')).toEqual({ afterSeq: 42, summaryAfterVersion: 0 });
    expect(parseLastEventId(' 40s3 ')).toEqual({ afterSeq: 40, summaryAfterVersion: 3 });
    for (const bad of ['', '-1', '1.5', 'abc', '4s', 's3', '01', '99999999999999999', '4s3s']) expect(parseLastEventId(bad)).toBeNull();
  });
});

import { NotFoundException } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { ADMIN, Principal } from '../../src/auth/principal';
import { Channel } from '../../src/channels/channel.entity';
import { ChannelsService } from '../../src/channels/channels.service';
import { MessageReadsRepository } from '../../src/message-store/message-reads.repository';
import { SummaryRepository } from '../../src/summary/summary.repository';
import { ChannelEventHub } from '../../src/realtime/channel-event-hub';
import { ACCESS_CHANGED, ChannelStreamEvent, MESSAGE_POSTED, SUMMARY_UPDATED } from '../../src/realtime/channel-stream-event';
import { ChannelSubscriptions } from '../../src/realtime/channel-subscriptions';
import { EventFanout, StopListening } from '../../src/realtime/event-fanout';
import { SSE_HEARTBEAT_MS, SSE_MAX_BUFFERED_BYTES } from '../../src/realtime/sse-limits';
import { SseStream } from '../../src/realtime/sse-stream';
import { AgentCredentialsChangedEvent } from '../../src/auth/agent-credentials-changed.event';
import { loadConfig } from '../../src/config/app-config';
import { RealtimeConfig } from '../../src/config/slices/realtime-config';
import { TooManyRequestsException } from '../../src/rate-limit/too-many-requests.exception';
import { FakeSseResponse } from './fake-sse-response';

/** Streams one agent may hold in these tests (QHORUS_MAX_SSE_STREAMS_PER_AGENT). */
const STREAM_LIMIT = 3;

/** What an SseStream wrote, as text. */
class FakeResponse extends FakeSseResponse {
  get text() {
    return this.chunks.join('');
  }
}

/** Counts how many streams currently want other instances' events. */
class CountingFanout extends EventFanout {
  listening = 0;
  publish(): void {}
  get othersListening(): boolean {
    return false;
  }
  async listen(): Promise<StopListening> {
    this.listening++;
    return () => this.listening--;
  }
  async close(): Promise<void> {}
}

const CHANNEL = { id: '7', name: 'ops', members: ['bob'] } as Channel;
const BOB: Principal = { kind: 'agent', name: 'bob' };
const event = (name: ChannelStreamEvent['name'], data: Record<string, unknown> = {}, telemetry = false, channelId = '7'): ChannelStreamEvent => ({
  channelId,
  name,
  data,
  telemetry,
});

describe('ChannelSubscriptions', () => {
  let hub: ChannelEventHub;
  let channels: { get: jest.Mock };
  let subscriptions: ChannelSubscriptions;
  let fanout: CountingFanout;

  async function open(by: Principal = BOB, includeEvents = false) {
    const res = new FakeResponse();
    const stream = new SseStream(res as unknown as ServerResponse);
    let clientGone = () => {};
    const release = subscriptions.reserve(by);
    await subscriptions.attach(CHANNEL, by, stream, (end) => (clientGone = end), { includeEvents, resume: { afterSeq: 0, summaryAfterVersion: null } }, release);
    return { res, goAway: () => clientGone() };
  }

  beforeEach(() => {
    jest.useFakeTimers();
    hub = new ChannelEventHub();
    channels = { get: jest.fn().mockResolvedValue(CHANNEL) };
    fanout = new CountingFanout();
    // Nothing to replay: these tests are about the live part (test/realtime/resumable-stream.spec.ts covers replay).
    const messages = { range: jest.fn().mockResolvedValue([]) } as unknown as MessageReadsRepository;
    const summaries = { findSlot: jest.fn().mockResolvedValue(null) } as unknown as SummaryRepository;
    subscriptions = new ChannelSubscriptions(hub, fanout, channels as unknown as ChannelsService, messages, summaries, new RealtimeConfig(loadConfig({ QHORUS_MAX_SSE_STREAMS_PER_AGENT: String(STREAM_LIMIT) })));
  });
  afterEach(() => jest.useRealTimers());

  it('sends its channel\'s events as SSE frames, and telemetry only when asked', async () => {
    const plain = await open();
    const all = await open(BOB, true);
    hub.deliver(event(MESSAGE_POSTED, { seq: 1 }));
    hub.deliver(event(MESSAGE_POSTED, { seq: 2 }, true));
    hub.deliver(event(SUMMARY_UPDATED, { version: 1 }));
    hub.deliver(event(MESSAGE_POSTED, { seq: 9 }, false, 'another-channel'));
    expect(plain.res.text).toBe(
      'retry: 3000\n: streaming channel ops\n\nid: 1\nevent: message.posted\ndata: {"seq":1}\n\nid: 2s1\nevent: summary.updated\ndata: {"version":1}\n\n',
    );
    expect(all.res.text).toContain('data: {"seq":2}');
  });

  it('writes a heartbeat comment every SSE_HEARTBEAT_MS', async () => {
    const { res } = await open();
    jest.advanceTimersByTime(SSE_HEARTBEAT_MS * 2);
    expect(res.text.match(/: heartbeat\n\n/g)).toHaveLength(2);
  });

  it('cleans up when the client goes away: no more writes, no listener, no timer, no interest in other instances', async () => {
    const { res, goAway } = await open();
    expect(fanout.listening).toBe(1);
    goAway();
    goAway();
    expect(subscriptions.openCount).toBe(0);
    expect(hub.subscriberCount).toBe(0);
    expect(fanout.listening).toBe(0);
    const written = res.text;
    hub.deliver(event(MESSAGE_POSTED, { seq: 1 }));
    jest.advanceTimersByTime(SSE_HEARTBEAT_MS * 3);
    expect(res.text).toBe(written);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('ends the stream of a caller who lost access when members change, and keeps the others', async () => {
    const lost = await open(BOB);
    const admin = await open(ADMIN);
    channels.get.mockImplementation(async (_: string, by: Principal) => {
      if (by.kind !== 'admin') throw new NotFoundException();
      return CHANNEL;
    });
    hub.deliver(event(ACCESS_CHANGED));
    await Promise.resolve();
    await Promise.resolve();
    expect(lost.res.writableEnded).toBe(true);
    expect(admin.res.writableEnded).toBe(false);
    expect(subscriptions.openCount).toBe(1);
  });

  it('ends every stream at shutdown, so the server can close', async () => {
    const a = await open();
    const b = await open();
    subscriptions.beforeApplicationShutdown();
    expect([a.res.writableEnded, b.res.writableEnded]).toEqual([true, true]);
    expect(subscriptions.openCount).toBe(0);
    expect(fanout.listening).toBe(0);
  });

  it('cuts off a client that stopped reading instead of buffering without bound', async () => {
    const { res } = await open();
    res.writableLength = SSE_MAX_BUFFERED_BYTES + 1;
    hub.deliver(event(MESSAGE_POSTED, { seq: 1 }));
    expect(res.destroyed).toBe(true);
    expect(res.text).not.toContain('seq');
  });

  it('refuses a stream past QHORUS_MAX_SSE_STREAMS_PER_AGENT with a 429 naming the limit, and frees a slot when one closes', async () => {
    const streams = [];
    for (let i = 0; i < STREAM_LIMIT; i++) streams.push(await open());
    expect(() => subscriptions.reserve(BOB)).toThrow(TooManyRequestsException);
    expect(() => subscriptions.reserve(BOB)).toThrow(/QHORUS_MAX_SSE_STREAMS_PER_AGENT=3/);
    expect(() => subscriptions.reserve(ADMIN)).not.toThrow(); // the operator is not limited
    streams[0].goAway();
    await expect(open()).resolves.toBeDefined();
  });

  it("ends an agent's streams when its credentials change, and no one else's", async () => {
    const bob = await open(BOB);
    const admin = await open(ADMIN);
    subscriptions.onCredentialsChanged(new AgentCredentialsChangedEvent(BOB.name));
    expect(bob.res.writableEnded).toBe(true);
    expect(admin.res.writableEnded).toBe(false);
    expect(subscriptions.openCount).toBe(1);
  });
});

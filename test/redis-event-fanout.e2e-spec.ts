import IORedis from 'ioredis';
import { ChannelStreamEvent, MESSAGE_POSTED } from '../apps/channel-service/src/realtime/channel-stream-event';
import { redisChannel, RedisInstanceBus } from '../apps/channel-service/src/bus/redis-instance-bus';
import { CHANNEL_EVENTS, ChannelEventFanout } from '../apps/channel-service/src/realtime/channel-event-fanout';
import { StopListening } from '../apps/channel-service/src/realtime/event-fanout';
import { waitFor } from './support/http';
import { TEST_REDIS_URL } from './support/test-database';

/** Short timing so expiry can be shown in a test (production announces every 5 s, TTL 15 s). */
const TIMING = { announceEveryMs: 100, listenersTtlMs: 300, announceTimeoutMs: 1_000, settleMs: 1_000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const event = (seq: number): ChannelStreamEvent => ({ channelId: '1', name: MESSAGE_POSTED, data: { seq }, telemetry: false });

/**
 * Two instances' fan-outs on a real Redis, and a spy on the events topic: events cross Redis
 * only while another instance has a stream open. Redis pub/sub keeps each publisher's order, so
 * when a later event arrives and an earlier one did not, the earlier one was never published.
 */
describe('Redis event fan-out: events cross Redis only while another instance streams', () => {
  const prefix = `qtest-fanout-${process.pid}-${Date.now().toString(36)}`;
  const received = { a: [] as number[], b: [] as number[] };
  const buses = [new RedisInstanceBus(TEST_REDIS_URL, prefix), new RedisInstanceBus(TEST_REDIS_URL, prefix)];
  const readPosted = async () => null;
  let a: ChannelEventFanout;
  let b: ChannelEventFanout;
  let spy: IORedis;
  const onTopic: number[] = [];

  beforeAll(async () => {
    a = new ChannelEventFanout(buses[0], (e) => received.a.push(e.data.seq as number), readPosted, TIMING);
    b = new ChannelEventFanout(buses[1], (e) => received.b.push(e.data.seq as number), readPosted, TIMING);
    spy = new IORedis(TEST_REDIS_URL);
    spy.on('message', (_topic: string, payload: string) => {
      for (const e of JSON.parse(payload.slice(payload.indexOf('\n') + 1))) onTopic.push(e.data.seq);
    });
    await spy.subscribe(redisChannel(prefix, CHANNEL_EVENTS));
    await sleep(TIMING.announceEveryMs); // both fan-outs subscribed to announcements
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await Promise.all(buses.map((bus) => bus.close()));
    spy.disconnect();
  });

  it('publishes nothing while no other instance has a stream open', async () => {
    a.publish(event(1));
    a.publish(event(2));
    const stopB = await b.listen();
    await waitFor(async () => {
      a.publish(event(3));
      return received.b.includes(3);
    }, 'an event published after B announced its stream');
    expect(onTopic[0]).toBe(3);
    expect(received.b).not.toContain(1);
    stopB();
  });

  it('delivers to the listening instance only what the other posted, never its own events back', async () => {
    const stopB = await b.listen();
    const stopA = await a.listen();
    received.a.length = received.b.length = 0;
    try {
      await waitFor(async () => {
        a.publish(event(10));
        b.publish(event(20));
        return received.a.includes(20) && received.b.includes(10);
      }, 'each instance gets the other\'s events');
      expect(new Set(received.a)).toEqual(new Set([20]));
      expect(new Set(received.b)).toEqual(new Set([10]));
    } finally {
      stopA();
      stopB();
    }
  });

  it('stops publishing once the last stream elsewhere closed and its announcement expired', async () => {
    const stopB = await b.listen();
    stopB();
    await sleep(TIMING.listenersTtlMs + TIMING.announceEveryMs);
    onTopic.length = 0;
    a.publish(event(30));
    const again: StopListening = await b.listen();
    await waitFor(async () => {
      a.publish(event(31));
      return onTopic.includes(31);
    }, 'an event published after B listened again');
    expect(onTopic).not.toContain(30);
    again();
  });

  it('keeps publishing while a stream stays open, well past one announcement\'s lifetime', async () => {
    const stopB = await b.listen();
    await sleep(TIMING.listenersTtlMs * 3);
    received.b.length = 0;
    a.publish(event(40));
    await waitFor(async () => received.b.includes(40), 'an event long after the first announcement');
    stopB();
  });
});

import { Logger } from '@nestjs/common';
import { Message, MessageType } from '@qhorus/api';
import { EventStreamBus, LevelEvent } from '@qhorus/blocks-summarisation';
import { loadConfig } from '../../src/config/app-config';
import { ClosedThreadSummariser } from '../../src/threads/closed-thread-summariser';
import { ThreadSummary } from '../../src/threads/thread-summary.entity';
import { threadKey } from '../../src/threads/thread-key';
import { toThreadEvent } from '../../src/threads/thread-event';
import { ThreadSummaryPipeline } from '../../src/threads/thread-summary.pipeline';

const IDLE_MS = 1_000;
const ATTEMPTS = 2;
const T0 = Date.parse('2026-01-01T00:00:00Z');

function message(seq: number, type: MessageType, correlationId: string): Message {
  return {
    id: String(seq),
    channel: 'c',
    seq,
    type,
    sender: 'alice',
    content: `m${seq}`,
    topic: 'general',
    correlationId,
    inReplyTo: null,
    target: null,
    metadata: null,
    createdAt: new Date(T0 + seq),
  };
}

/** Stands in for the Postgres-backed step: records calls, fails while told to. */
class StubThreads {
  calls: [string, string][] = [];
  failing = false;
  async summariseAndStore(channelId: string, correlationId: string): Promise<ThreadSummary | null> {
    this.calls.push([channelId, correlationId]);
    if (this.failing) throw new Error('database unavailable');
    return { channelId, correlationId, text: 'summary', annotations: {}, firstSeq: 1, lastSeq: 2, messageCount: 2, closedBy: MessageType.DONE, createdAt: new Date() };
  }
}

describe('ThreadSummaryPipeline', () => {
  let bus: EventStreamBus<LevelEvent<Message>>;
  let threads: StubThreads;
  let pipeline: ThreadSummaryPipeline;
  const publish = (channelId: string, m: Message) => bus.publish(toThreadEvent(threadKey(channelId, m.correlationId!), m));
  /** Lets the runner's collect/emit promises settle. */
  const settle = () => new Promise((r) => setImmediate(r));

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    bus = new EventStreamBus();
    threads = new StubThreads();
    const config = loadConfig({ QHORUS_THREAD_IDLE_MS: String(IDLE_MS), QHORUS_JOB_ATTEMPTS: String(ATTEMPTS) });
    pipeline = new ThreadSummaryPipeline(bus, threads as unknown as ClosedThreadSummariser, config);
    pipeline.onApplicationBootstrap();
  });
  afterEach(() => pipeline.beforeApplicationShutdown());

  it('summarises a thread when a message closes it, by channel id and correlation id (colons included)', async () => {
    publish('7', message(1, MessageType.QUERY, 'a:b'));
    await settle();
    expect(threads.calls).toEqual([]);
    publish('7', message(2, MessageType.DONE, 'a:b'));
    await settle();
    expect(threads.calls).toEqual([['7', 'a:b']]);
    expect(pipeline.pendingThreads).toBe(0);
  });

  it.each([MessageType.FAILURE, MessageType.HANDOFF])('%s closes a thread too', async (type) => {
    publish('1', message(1, type, 'x'));
    await settle();
    expect(threads.calls).toEqual([['1', 'x']]);
  });

  it('drops an open thread once it has been idle for QHORUS_THREAD_IDLE_MS, without summarising it', async () => {
    publish('1', message(1, MessageType.QUERY, 'open'));
    await settle();
    await pipeline.tick(T0 + 1 + IDLE_MS - 1);
    expect(pipeline.pendingThreads).toBe(1);
    await pipeline.tick(T0 + 1 + IDLE_MS);
    expect(pipeline.pendingThreads).toBe(0);
    expect(threads.calls).toEqual([]);
  });

  it('retries a failed summary on the next ticks, QHORUS_JOB_ATTEMPTS attempts in all, then gives up', async () => {
    threads.failing = true;
    publish('1', message(1, MessageType.DONE, 'flaky'));
    await settle();
    expect(threads.calls).toHaveLength(1);
    expect(pipeline.pendingThreads).toBe(1);
    await pipeline.tick(T0);
    expect(threads.calls).toHaveLength(ATTEMPTS);
    await pipeline.tick(T0);
    expect(threads.calls).toHaveLength(ATTEMPTS);
    expect(pipeline.pendingThreads).toBe(0);
  });

  it('a retry that succeeds stores the summary and forgets the failures', async () => {
    threads.failing = true;
    publish('1', message(1, MessageType.DONE, 'blip'));
    await settle();
    threads.failing = false;
    await pipeline.tick(T0);
    expect(threads.calls).toEqual([
      ['1', 'blip'],
      ['1', 'blip'],
    ]);
    expect(pipeline.pendingThreads).toBe(0);
  });

  it('takes no more events after shutdown', async () => {
    await pipeline.beforeApplicationShutdown();
    publish('1', message(1, MessageType.DONE, 'late'));
    await settle();
    expect(threads.calls).toEqual([]);
  });
});

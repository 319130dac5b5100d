import { SummaryConfig } from '../../src/config/slices/summary-config';
import { ChannelJobLock } from '../../src/summary/channel-job-lock';
import { SummaryQueue } from '../../src/summary/queue/summary-queue';
import { SummaryJobProcessor } from '../../src/summary/summary-job.processor';
import { SummaryJobRunner } from '../../src/summary/jobs/summary-job.runner';
import { SummaryRepository } from '../../src/summary/summary.repository';
import { ClosedThreadSummariser } from '../../src/summary/jobs/closed-thread-summariser';

/** A lock that another process holds for the keys in `heldElsewhere`; records every key asked for. */
class FakeLock extends ChannelJobLock {
  readonly asked: string[] = [];
  constructor(private readonly heldElsewhere: Set<string>) {
    super();
  }
  async whileHeld<T>(jobKey: string, work: () => Promise<T>): Promise<{ busy: true } | { busy: false; value: T }> {
    this.asked.push(jobKey);
    if (this.heldElsewhere.has(jobKey)) return { busy: true };
    return { busy: false, value: await work() };
  }
  async close(): Promise<void> {}
}

function processor(heldElsewhere: string[], threadDueAgain = false) {
  const lock = new FakeLock(new Set(heldElsewhere));
  const enqueued: unknown[] = [];
  const threadRuns: string[] = [];
  const queue = {
    enqueue: async (channelId: string) => enqueued.push({ channelId }),
    enqueueThread: async (channelId: string, correlationId: string) => enqueued.push({ channelId, correlationId }),
  } as unknown as SummaryQueue;
  const summaries = { findDue: async () => null, isDue: async () => false } as unknown as SummaryRepository;
  const threads = {
    run: async (channelId: string, correlationId: string) => {
      threadRuns.push(`${channelId}:${correlationId}`);
      return threadDueAgain;
    },
  } as unknown as ClosedThreadSummariser;
  const config = { failureBackoffMs: 1000, chunkSize: 10 } as unknown as SummaryConfig;
  const p = new SummaryJobProcessor(queue, {} as SummaryJobRunner, summaries, threads, config, lock);
  return { p, lock, enqueued, threadRuns };
}

describe('SummaryJobProcessor locks', () => {
  it('locks a thread job by its thread key, not its channel: a busy channel slot does not hold it back', async () => {
    const { p, lock, threadRuns } = processor(['7']);
    expect(await p.run({ channelId: '7', correlationId: 'q-1' })).toBe('done');
    expect(lock.asked).toEqual(['7:q-1']);
    expect(threadRuns).toEqual(['7:q-1']);
  });

  it('answers busy without summarising when another process holds the thread', async () => {
    const { p, threadRuns, enqueued } = processor(['7:q-1']);
    expect(await p.run({ channelId: '7', correlationId: 'q-1' })).toBe('busy');
    expect(threadRuns).toEqual([]);
    expect(enqueued).toEqual([]);
  });

  it('enqueues the thread again when it was closed again meanwhile', async () => {
    const { p, enqueued } = processor([], true);
    expect(await p.run({ channelId: '7', correlationId: 'q-1' })).toBe('done');
    expect(enqueued).toEqual([{ channelId: '7', correlationId: 'q-1' }]);
  });

  it('answers busy for a channel-slot job whose channel is held elsewhere', async () => {
    const { p, lock } = processor(['7']);
    expect(await p.run({ channelId: '7' })).toBe('busy');
    expect(lock.asked).toEqual(['7']);
  });
});

import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Message, SummaryResult, summaryResult } from '@qhorus/api';
import { KeyedSummarisationRunner, LevelEvent } from '@qhorus/blocks-summarisation';
import { AppConfig } from '../config/app-config';
import { ClosedThreadSummariser } from './closed-thread-summariser';
import { THREAD_EVENT_BUS, ThreadEventBus } from './thread-event-bus';
import { closesThread, parseThreadKey } from './thread-key';

/** What a group step returns when it stored nothing (an idle open thread, or a thread gone). */
const NOTHING_STORED: SummaryResult = summaryResult('', {});

/**
 * Thread summaries on the pipeline path: thread events from the bus go into a
 * KeyedSummarisationRunner keyed by `${channelId}:${correlationId}`. A group completes when a
 * message closes the thread (see closesThread); the runner then runs this pipeline's step, which
 * summarises the WHOLE thread from Postgres and stores it (ClosedThreadSummariser).
 *
 * On every tick (QHORUS_THREAD_TICK_MS):
 * - an open thread with no event for QHORUS_THREAD_IDLE_MS is dropped: the runner hands the
 *   stale group to the step, which stores nothing. Nothing is lost by dropping it, because the
 *   close, whenever it comes, reads the whole thread from Postgres;
 * - a closed thread whose summary failed (the runner put it back) is tried again, up to
 *   QHORUS_JOB_ATTEMPTS attempts in all, then dropped with an error in the log.
 *
 * Each instance only sees the posts it accepted, so the instance that accepts the closing message
 * makes the summary; groups other instances hold for that thread stay open and go idle.
 */
@Injectable()
export class ThreadSummaryPipeline implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ThreadSummaryPipeline.name);
  private readonly runner: KeyedSummarisationRunner<Message>;
  /** Failed attempts per closed thread still to retry. */
  private readonly failures = new Map<string, number>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private unsubscribe: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;

  constructor(
    @Inject(THREAD_EVENT_BUS) private readonly bus: ThreadEventBus,
    private readonly threads: ClosedThreadSummariser,
    private readonly config: AppConfig,
  ) {
    this.runner = new KeyedSummarisationRunner<Message>({
      summariser: { summarise: (events) => this.summariseGroup(events) },
      isComplete: (events) => events.some((event) => closesThread(event.payload)),
      maxIdleMs: config.QHORUS_THREAD_IDLE_MS,
      onSummary: (key, result) => this.succeeded(key, result),
      onFailure: (key, error) => this.failed(key, error),
    });
  }

  onApplicationBootstrap(): void {
    this.unsubscribe = this.bus.subscribe((event) => void this.track(this.runner.collect(event)));
    this.timer = setInterval(() => void this.tick(), this.config.QHORUS_THREAD_TICK_MS);
    this.timer.unref();
  }

  /** Stops taking events, then lets summaries in progress finish (before the database closes). */
  async beforeApplicationShutdown(): Promise<void> {
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  /** Threads held in memory (open, or closed and waiting for a retry). */
  get pendingThreads(): number {
    return this.runner.pendingKeys.length;
  }

  /** Drops idle open threads and retries failed closed ones; one tick at a time. */
  async tick(now: number = Date.now()): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      await this.track(this.runner.tick(now));
    } finally {
      this.ticking = false;
    }
  }

  private async summariseGroup(events: readonly LevelEvent<Message>[]): Promise<SummaryResult> {
    const key = events[0].key;
    if (!events.some((event) => closesThread(event.payload))) {
      this.logger.debug({ thread: key, events: events.length }, 'idle open thread dropped from memory');
      return NOTHING_STORED;
    }
    const attempt = (this.failures.get(key) ?? 0) + 1;
    if (attempt > this.config.QHORUS_JOB_ATTEMPTS) {
      this.failures.delete(key);
      this.logger.error({ thread: key, attempts: attempt - 1 }, 'thread summary failed on every attempt; giving up until the thread closes again');
      return NOTHING_STORED;
    }
    const { channelId, correlationId } = parseThreadKey(key);
    const stored = await this.threads.summariseAndStore(channelId, correlationId);
    return stored ? summaryResult(stored.text, stored.annotations) : NOTHING_STORED;
  }

  private succeeded(key: string, result: SummaryResult): void {
    this.failures.delete(key);
    if (result !== NOTHING_STORED) this.logger.debug({ thread: key }, 'thread summary stored');
  }

  private failed(key: string, error: unknown): void {
    const attempts = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, attempts);
    const err = error instanceof Error ? error.message : String(error);
    this.logger.warn({ thread: key, attempt: attempts, err }, 'thread summary failed; retried on the next tick');
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
    return work;
  }
}

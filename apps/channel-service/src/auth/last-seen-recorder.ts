import { Logger } from '@nestjs/common';
import { AgentsRepository } from './agents.repository';

/**
 * Agents' last-seen times, written behind: a request only notes the time in memory; a timer
 * (QHORUS_LAST_SEEN_FLUSH_MS) writes everything noted since the last flush in one statement, and
 * the last flush runs at shutdown. A failed flush keeps its entries for the next one.
 */
export class LastSeenRecorder {
  private readonly logger = new Logger(LastSeenRecorder.name);
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly agents: AgentsRepository,
    private readonly flushEveryMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.flushEveryMs);
    this.timer.unref();
  }

  seen(name: string): void {
    this.pending.set(name, new Date());
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flushing;
    await this.flush();
  }

  flush(): Promise<void> {
    if (this.flushing || this.pending.size === 0) return this.flushing ?? Promise.resolve();
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.agents
      .touchLastSeen(batch)
      .catch((err) => {
        this.logger.warn({ err: (err as Error).message, agents: batch.size }, 'could not write last-seen times; keeping them for the next flush');
        for (const [name, at] of batch) if (!this.pending.has(name)) this.pending.set(name, at);
      })
      .finally(() => (this.flushing = null));
    return this.flushing;
  }
}

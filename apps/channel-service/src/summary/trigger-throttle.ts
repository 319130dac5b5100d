/**
 * How long after asking the queue for a channel's job this process asks again while the backlog
 * stays over the threshold. Until the job catches up every post would otherwise re-enqueue (one
 * Redis round trip per post, deduplicated to nothing); the processor re-checks the backlog when
 * each job ends and the sweep covers the rest, so this only bounds how late a retry can be.
 */
export const SUMMARY_RETRIGGER_MS = 200;
/** Channels remembered at most; past it the memory is dropped (a few extra enqueues, no harm). */
export const SUMMARY_TRIGGER_MEMORY = 10_000;

/**
 * Decides whether a post should enqueue its channel's summary job. Always when the backlog is
 * exactly the threshold or a multiple of it (every crossing triggers at once), otherwise only
 * if this process has not enqueued that channel within SUMMARY_RETRIGGER_MS.
 */
export class TriggerThrottle {
  private readonly lastEnqueuedAt = new Map<string, number>();

  constructor(
    private readonly retriggerMs = SUMMARY_RETRIGGER_MS,
    private readonly now: () => number = Date.now,
    private readonly memory = SUMMARY_TRIGGER_MEMORY,
  ) {}

  shouldEnqueue(channelId: string, backlog: number, threshold: number): boolean {
    if (backlog < threshold) return false;
    const now = this.now();
    const last = this.lastEnqueuedAt.get(channelId);
    if (backlog % threshold !== 0 && last !== undefined && now - last < this.retriggerMs) return false;
    if (this.lastEnqueuedAt.size >= this.memory) this.lastEnqueuedAt.clear();
    this.lastEnqueuedAt.set(channelId, now);
    return true;
  }
}

import { backlogReached } from '../channels/summary-backlog';

/**
 * How long after asking the queue for a channel's job this process asks again while the backlog
 * stays over the threshold. Until the job catches up every post would otherwise re-enqueue (one
 * Redis round trip per post, deduplicated to nothing); the processor re-checks the backlog when
 * each job ends and the sweep covers the rest, so this only bounds how late a retry can be.
 */
export const SUMMARY_RETRIGGER_MS = 200;
/** Channels remembered at most; past it the memory is dropped (a few extra enqueues, no harm). */
export const SUMMARY_TRIGGER_MEMORY = 10_000;

/** A channel's backlog right after a post, in messages and in estimated tokens. */
export interface Backlog {
  backlog: number;
  threshold: number;
  /** The token trigger, when the channel has one (`summaryThresholdTokens`). */
  tokens?: { backlog: number; threshold: number | null; added: number };
}

/**
 * Decides whether a post should enqueue its channel's summary job: the backlog reached the
 * message threshold or the token threshold, whichever comes first. Always when the post crossed
 * a threshold (the message backlog is exactly the threshold or a multiple of it, or the token
 * backlog passed a multiple of the token threshold), otherwise only if this process has not
 * enqueued that channel within SUMMARY_RETRIGGER_MS.
 */
export class TriggerThrottle {
  private readonly lastEnqueuedAt = new Map<string, number>();

  constructor(
    private readonly retriggerMs = SUMMARY_RETRIGGER_MS,
    private readonly now: () => number = Date.now,
    private readonly memory = SUMMARY_TRIGGER_MEMORY,
  ) {}

  /** `(channelId, backlog, threshold)` is short for a channel without a token trigger. */
  shouldEnqueue(channelId: string, backlog: number | Backlog, threshold?: number): boolean {
    const b: Backlog = typeof backlog === 'number' ? { backlog, threshold: threshold! } : backlog;
    const byCount = backlogReached(b.backlog, b.threshold);
    const t = b.tokens;
    const byTokens = t !== undefined && t.threshold !== null && backlogReached(t.backlog, t.threshold);
    if (!byCount && !byTokens) return false;
    const crossed =
      (byCount && b.backlog % b.threshold === 0) ||
      (byTokens && Math.floor(t!.backlog / t!.threshold!) > Math.floor((t!.backlog - t!.added) / t!.threshold!));
    const now = this.now();
    const last = this.lastEnqueuedAt.get(channelId);
    if (!crossed && last !== undefined && now - last < this.retriggerMs) return false;
    if (this.lastEnqueuedAt.size >= this.memory) this.lastEnqueuedAt.clear();
    this.lastEnqueuedAt.set(channelId, now);
    return true;
  }
}

/** The retry schedule of one event (DESIGN §11: about 5 s … 10 h, about a day in all). */
export interface RetrySchedule {
  minMs: number;
  maxMs: number;
  giveUpMs: number;
}

/**
 * The wait before attempt `attempt + 1`: min × 2^(attempt−1), capped at max, with "equal
 * jitter" (between half and all of it), so receivers that failed together are not retried in step.
 */
export function retryDelayMs(schedule: RetrySchedule, attempt: number, random: () => number = Math.random): number {
  const exponent = Math.min(attempt - 1, 52);
  const base = Math.min(schedule.maxMs, schedule.minMs * 2 ** exponent);
  return Math.round(base / 2 + (random() * base) / 2);
}

/** Whether a failed event gives up: its next attempt would come later than giveUpMs after it was first due. */
export function givesUp(schedule: RetrySchedule, firstDueAt: Date, now: Date, nextDelayMs: number): boolean {
  return now.getTime() + nextDelayMs - firstDueAt.getTime() > schedule.giveUpMs;
}

import { CONFIG_DEFAULTS } from '../../src/config/config-defaults';
import { givesUp, retryDelayMs } from '../../src/webhooks/retry-schedule';

const DEFAULT_SCHEDULE = {
  minMs: CONFIG_DEFAULTS.QHORUS_WEBHOOK_BACKOFF_MIN_MS,
  maxMs: CONFIG_DEFAULTS.QHORUS_WEBHOOK_BACKOFF_MAX_MS,
  giveUpMs: CONFIG_DEFAULTS.QHORUS_WEBHOOK_GIVE_UP_MS,
};

describe('webhook retry schedule', () => {
  it('doubles from about 5 s to a 10 h cap, with jitter between half and all of each step', () => {
    expect(retryDelayMs(DEFAULT_SCHEDULE, 1, () => 1)).toBe(5_000);
    expect(retryDelayMs(DEFAULT_SCHEDULE, 1, () => 0)).toBe(2_500);
    expect(retryDelayMs(DEFAULT_SCHEDULE, 4, () => 1)).toBe(40_000);
    expect(retryDelayMs(DEFAULT_SCHEDULE, 30, () => 1)).toBe(10 * 3600_000);
    expect(retryDelayMs(DEFAULT_SCHEDULE, 10_000, () => 0.5)).toBe(0.75 * 10 * 3600_000);
  });

  it('gives up after about a day of attempts, whatever the jitter', () => {
    for (const jitter of [0, 0.5, 1]) {
      const first = new Date(0);
      let now = 0;
      let attempt = 1;
      for (; ; attempt++) {
        const delay = retryDelayMs(DEFAULT_SCHEDULE, attempt, () => jitter);
        if (givesUp(DEFAULT_SCHEDULE, first, new Date(now), delay)) break;
        now += delay;
      }
      // The last attempt falls within the day, and past half of it.
      expect(now).toBeLessThanOrEqual(DEFAULT_SCHEDULE.giveUpMs);
      expect(now).toBeGreaterThan(DEFAULT_SCHEDULE.giveUpMs / 2);
      expect(attempt).toBeGreaterThanOrEqual(13);
    }
  });
});

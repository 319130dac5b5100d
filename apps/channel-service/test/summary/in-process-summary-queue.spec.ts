import { InProcessSummaryQueue } from '../../src/summary/queue/in-process-summary.queue';

/** A backoff no test waits for: if close() waited for it, the test would time out. */
const LONG_MS = 60_000;

describe('InProcessSummaryQueue', () => {
  it('a retry waiting out its backoff ends at close(), and is not run', async () => {
    const queue = new InProcessSummaryQueue({ attempts: 3, backoffMs: LONG_MS }, 1);
    let calls = 0;
    let failed!: () => void;
    const firstFailure = new Promise<void>((resolve) => (failed = resolve));
    await queue.startWorker(async () => {
      calls++;
      failed();
      throw new Error('summariser down');
    });
    await queue.enqueue('channel-1');
    await firstFailure;
    await queue.close(LONG_MS); // resolves now, not after the backoff or the grace period
    expect(calls).toBe(1);
    expect(await queue.enqueue('channel-1')).toBe(false);
  });

  it('retries after the backoff while open', async () => {
    const queue = new InProcessSummaryQueue({ attempts: 3, backoffMs: 1 }, 1);
    const attempts: number[] = [];
    let done!: () => void;
    const succeeded = new Promise<void>((resolve) => (done = resolve));
    await queue.startWorker(async (_job, attempt) => {
      attempts.push(attempt);
      if (attempt < 3) throw new Error('not yet');
      done();
      return 'done';
    });
    await queue.enqueue('channel-2');
    await succeeded;
    expect(attempts).toEqual([1, 2, 3]);
    await queue.close(LONG_MS);
  });
});

import { TimeoutError, withAbortableTimeout } from '../../src/common/with-timeout';

const DEADLINE_MS = 20;
const GRACE_MS = 2_000;

/** A call that ignores its signal and ends only when `finish()` is called; `aborted` tells when its signal fired. */
function controllable() {
  let finish!: () => void;
  let onAbort!: (reason: unknown) => void;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const aborted = new Promise<unknown>((resolve) => (onAbort = resolve));
  const work = (signal: AbortSignal) => {
    signal.addEventListener('abort', () => onAbort(signal.reason));
    return ended.then(() => 'late answer');
  };
  return { work, finish, aborted };
}

describe('withAbortableTimeout', () => {
  it('returns the answer of a call that ends in time, without aborting it', async () => {
    let signal: AbortSignal | undefined;
    await expect(withAbortableTimeout(async (s) => ((signal = s), 'answer'), GRACE_MS, GRACE_MS, 'call')).resolves.toBe('answer');
    expect(signal!.aborted).toBe(false);
  });

  it('passes on the failure of a call that fails in time', async () => {
    await expect(withAbortableTimeout(() => Promise.reject(new Error('broke')), GRACE_MS, GRACE_MS, 'call')).rejects.toThrow('broke');
  });

  it('aborts a call past the deadline and settles only once the call has stopped', async () => {
    const call = controllable();
    let settled = false;
    const outcome = withAbortableTimeout(call.work, DEADLINE_MS, GRACE_MS, 'call').finally(() => (settled = true));
    expect(await call.aborted).toBeInstanceOf(TimeoutError);
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false); // the call it gave up on still runs (it ignores its signal): no rejection yet
    call.finish();
    await expect(outcome).rejects.toThrow(`call timed out after ${DEADLINE_MS} ms`);
  });

  it('names a call still running when the grace period ends', async () => {
    const call = controllable();
    await expect(withAbortableTimeout(call.work, DEADLINE_MS, DEADLINE_MS, 'call')).rejects.toThrow(/still running .* after it was aborted/);
    call.finish();
  });
});

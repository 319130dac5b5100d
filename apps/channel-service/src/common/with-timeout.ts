export class TimeoutError extends Error {}

/** Rejects with TimeoutError when `work` has not settled within `ms`; clears its timer either way. */
export async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what} timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `work(signal)` under a deadline that also stops it: past `ms` the signal is aborted, and
 * the call then has up to `settleMs` more to settle before this rejects with TimeoutError. So
 * whoever retries after the rejection does not overlap the call it gave up on, as long as the
 * call honours its signal or ends within `settleMs`; one that does neither is named in the error.
 */
export async function withAbortableTimeout<T>(work: (signal: AbortSignal) => Promise<T>, ms: number, settleMs: number, what: string): Promise<T> {
  const controller = new AbortController();
  const call = Promise.resolve().then(() => work(controller.signal));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    const first = await Promise.race([call, deadline]);
    if (first !== TIMED_OUT) return first;
  } finally {
    clearTimeout(timer);
  }
  const error = new TimeoutError(`${what} timed out after ${ms} ms`);
  controller.abort(error);
  const settled = call.then(
    () => true,
    () => true,
  );
  const stopped = await withTimeout(settled, settleMs, what).catch(() => false);
  if (!stopped) throw new TimeoutError(`${error.message} and was still running ${settleMs} ms after it was aborted`);
  throw error;
}

const TIMED_OUT: unique symbol = Symbol('timed out');

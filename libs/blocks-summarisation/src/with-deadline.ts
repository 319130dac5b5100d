/**
 * Settles with `work`, or rejects with `onTimeout()` after `timeoutMs` and calls `abort` so the
 * underlying request (socket) is released. Our own deadline, independent of the SDK's, so a
 * server that accepts the connection and never answers is always cut off.
 */
export async function withDeadline<R>(work: Promise<R>, timeoutMs: number, abort: () => void, onTimeout: () => Error): Promise<R> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort();
      reject(onTimeout());
    }, timeoutMs);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

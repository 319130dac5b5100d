import { configSlice } from '../config-slice';

/** threads/: the bounds of the thread index's reads and of the inbox wait. */
export class ThreadsConfig extends configSlice((config) => ({
  /** Threads a list answers when it names no `limit`. */
  pageLimitDefault: config.QHORUS_PAGE_LIMIT_DEFAULT,
  longPollMaxMs: config.QHORUS_LONG_POLL_MAX_MS,
})) {}

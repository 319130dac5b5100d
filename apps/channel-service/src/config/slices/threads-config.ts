import { AppConfig } from '../app-config';

/** threads/: the bounds of the thread index's reads and of the inbox wait. */
export class ThreadsConfig {
  /** Threads a list answers when it names no `limit`. */
  readonly pageLimitDefault: number;
  readonly longPollMaxMs: number;

  constructor(config: AppConfig) {
    this.pageLimitDefault = config.QHORUS_PAGE_LIMIT_DEFAULT;
    this.longPollMaxMs = config.QHORUS_LONG_POLL_MAX_MS;
  }
}

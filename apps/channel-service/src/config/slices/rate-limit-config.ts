import { AppConfig } from '../app-config';

/** rate-limit/: each agent's request rate, and where instances share it. */
export class RateLimitConfig {
  /** Requests per agent: sustained rate and burst (a token bucket). */
  readonly policy: { readonly ratePerSecond: number; readonly burst: number };
  /** With Redis: tokens an instance leases from an agent's shared bucket at a time. */
  readonly lease: number;
  /** Redis holding the shared buckets; undefined: each instance limits alone. */
  readonly redisUrl: string | undefined;
  readonly keyPrefix: string;

  constructor(config: AppConfig) {
    this.policy = { ratePerSecond: config.QHORUS_RATE_LIMIT_PER_SECOND, burst: config.QHORUS_RATE_LIMIT_BURST };
    this.lease = config.QHORUS_RATE_LIMIT_LEASE;
    this.redisUrl = config.REDIS_URL;
    this.keyPrefix = config.QHORUS_QUEUE_PREFIX;
  }
}

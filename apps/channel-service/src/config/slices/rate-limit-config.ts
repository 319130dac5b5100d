import { configSlice } from '../config-slice';

/** rate-limit/: each agent's request rate, and where instances share it. */
export class RateLimitConfig extends configSlice((config) => ({
  /** Requests per agent: sustained rate and burst (a token bucket). */
  policy: { ratePerSecond: config.QHORUS_RATE_LIMIT_PER_SECOND, burst: config.QHORUS_RATE_LIMIT_BURST },
  /** With Redis: tokens an instance leases from an agent's shared bucket at a time. */
  lease: config.QHORUS_RATE_LIMIT_LEASE,
  /** Redis holding the shared buckets; undefined: each instance limits alone. */
  redisUrl: config.REDIS_URL,
  keyPrefix: config.QHORUS_QUEUE_PREFIX,
})) {}

import { Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { PrincipalRateLimit } from './principal-rate-limit';
import { RateLimiter } from './rate-limiter';
import { RedisTokenBucket } from './redis-token-bucket';
import { maxLeaseFor, SharedRateLimiter } from './shared-rate-limiter';

/**
 * Per-agent rate limiting (429 + Retry-After). With REDIS_URL, one rate per agent across every
 * instance (tokens leased from a shared bucket in chunks); without Redis, each instance keeps its
 * own buckets, so N instances behind a balancer allow up to N × the configured rate per agent.
 */
@Module({
  providers: [
    {
      provide: PrincipalRateLimit,
      inject: [AppConfig],
      useFactory: (config: AppConfig): PrincipalRateLimit => {
        const policy = { ratePerSecond: config.QHORUS_RATE_LIMIT_PER_SECOND, burst: config.QHORUS_RATE_LIMIT_BURST };
        const local = new RateLimiter(policy);
        if (!config.REDIS_URL) return local;
        const minLease = config.QHORUS_RATE_LIMIT_LEASE;
        const bucket = new RedisTokenBucket(config.REDIS_URL, config.QHORUS_QUEUE_PREFIX, policy);
        return new SharedRateLimiter(bucket, minLease, local, Date.now, maxLeaseFor(policy.ratePerSecond, minLease));
      },
    },
  ],
  exports: [PrincipalRateLimit],
})
export class RateLimitModule implements OnApplicationShutdown {
  constructor(private readonly limiter: PrincipalRateLimit) {}

  async onApplicationShutdown(): Promise<void> {
    await this.limiter.close();
  }
}

import { Module, OnApplicationShutdown } from '@nestjs/common';
import { RateLimitConfig } from '../config/slices/rate-limit-config';
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
      inject: [RateLimitConfig],
      useFactory: ({ policy, lease, redisUrl, keyPrefix }: RateLimitConfig): PrincipalRateLimit => {
        const local = new RateLimiter(policy);
        if (!redisUrl) return local;
        const bucket = new RedisTokenBucket(redisUrl, keyPrefix, policy);
        return new SharedRateLimiter(bucket, lease, local, Date.now, maxLeaseFor(policy.ratePerSecond, lease));
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

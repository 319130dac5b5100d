import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AppConfig } from '../config/app-config';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimiter } from './rate-limiter';

/**
 * Per-agent rate limiting (429 + Retry-After), in process: each API instance keeps its own
 * buckets, so N instances behind a balancer allow up to N × the configured rate per agent.
 */
@Module({
  providers: [
    {
      provide: RateLimiter,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new RateLimiter({ ratePerSecond: config.QHORUS_RATE_LIMIT_PER_SECOND, burst: config.QHORUS_RATE_LIMIT_BURST }),
    },
    // After AuthModule's AuthGuard (AppModule imports AuthModule first): see RateLimitGuard.
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ],
  exports: [RateLimiter],
})
export class RateLimitModule {}

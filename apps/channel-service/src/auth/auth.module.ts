import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { AdminCredential } from './admin-credential';
import { resolveAdminTokenHash } from './admin-token';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { CredentialEvents, LocalCredentialEvents } from './credential-events/credential-events';
import { PostgresCredentialEvents } from './credential-events/postgres-credential-events';
import { RedisCredentialEvents } from './credential-events/redis-credential-events';
import { DeploymentSecretsRepository } from './deployment-secrets.repository';
import { RateLimitGuard } from './rate-limit.guard';

@Module({
  imports: [RateLimitModule],
  controllers: [AgentsController],
  providers: [
    AgentsRepository,
    DeploymentSecretsRepository,
    {
      provide: AdminCredential,
      inject: [AppConfig, DeploymentSecretsRepository],
      useFactory: async (config: AppConfig, secrets: DeploymentSecretsRepository) => AdminCredential.fromHash(await resolveAdminTokenHash(config, secrets)),
    },
    {
      // Redis when there is one; otherwise Postgres' LISTEN/NOTIFY; the embedded default is one process.
      provide: CredentialEvents,
      inject: [AppConfig, Database],
      useFactory: async (config: AppConfig, db: Database): Promise<CredentialEvents> => {
        if (config.REDIS_URL) return new RedisCredentialEvents(config.REDIS_URL, config.QHORUS_QUEUE_PREFIX);
        if (config.DATABASE_URL) return PostgresCredentialEvents.start(config.DATABASE_URL, db);
        return new LocalCredentialEvents();
      },
    },
    AuthService,
    // Guards run in registration order: the rate limit needs the principal AuthGuard sets.
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ],
  exports: [AuthService],
})
export class AuthModule {}

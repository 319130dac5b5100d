import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { BusModule } from '../bus/bus.module';
import { InstanceBus } from '../bus/instance-bus';
import { AuthConfig } from '../config/slices/auth-config';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { AdminCredential } from './admin-credential';
import { resolveAdminTokenHash } from './admin-token';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { CredentialEvents } from './credential-events';
import { DeploymentSecretsRepository } from './deployment-secrets.repository';
import { RateLimitGuard } from './rate-limit.guard';

@Module({
  imports: [BusModule, RateLimitModule],
  controllers: [AgentsController],
  providers: [
    AgentsRepository,
    DeploymentSecretsRepository,
    {
      provide: AdminCredential,
      inject: [AuthConfig, DeploymentSecretsRepository],
      useFactory: async (config: AuthConfig, secrets: DeploymentSecretsRepository) => AdminCredential.fromHash(await resolveAdminTokenHash(config, secrets)),
    },
    { provide: CredentialEvents, inject: [InstanceBus], useFactory: (bus: InstanceBus) => new CredentialEvents(bus) },
    AuthService,
    // Guards run in registration order: the rate limit needs the principal AuthGuard sets.
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ],
  exports: [AuthService],
})
export class AuthModule {}

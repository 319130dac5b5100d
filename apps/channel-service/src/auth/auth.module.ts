import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';

@Module({
  controllers: [AgentsController],
  providers: [AgentsRepository, AuthService, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [AuthService],
})
export class AuthModule {}

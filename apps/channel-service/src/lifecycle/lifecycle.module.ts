import { Global, Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AgentEraser } from '../auth/agent-eraser';
import { ChannelsModule } from '../channels/channels.module';
import { SummaryModule } from '../summary/summary.module';
import { AgentErasureService } from './agent-erasure.service';
import { ChannelLifecycleService } from './channel-lifecycle.service';
import { LifecycleController } from './lifecycle.controller';
import { LifecycleRepository } from './lifecycle.repository';
import { RedactionService } from './redaction.service';

/**
 * The lifecycle operations of DESIGN §10 that remove content: redaction, summary rebuild,
 * channel deletion, an agent's erasure. Global only to provide `AgentEraser` to the agents
 * route (auth declares it; this feature builds on auth, not the other way round).
 */
@Global()
@Module({
  imports: [AuditModule, ChannelsModule, SummaryModule],
  controllers: [LifecycleController],
  providers: [LifecycleRepository, RedactionService, ChannelLifecycleService, { provide: AgentEraser, useClass: AgentErasureService }],
  exports: [AgentEraser, RedactionService, LifecycleRepository],
})
export class LifecycleModule {}

import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { RetentionRepository } from './retention.repository';
import { RetentionSweepService } from './retention-sweep.service';

/** Retention (DESIGN §10): the periodic pass that removes messages the summary covers past a channel's bounds. */
@Module({
  imports: [AuditModule],
  providers: [RetentionRepository, RetentionSweepService],
  exports: [RetentionSweepService],
})
export class RetentionModule {}

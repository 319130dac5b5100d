import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller';
import { AuditLog } from './audit-log.repository';

/** The append-only audit log of DESIGN §10: `AuditLog.record` (inside an operation's transaction) and `GET /audit`. */
@Module({
  controllers: [AuditController],
  providers: [AuditLog],
  exports: [AuditLog],
})
export class AuditModule {}

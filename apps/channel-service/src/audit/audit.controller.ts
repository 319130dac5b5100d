import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../auth/auth.decorators';
import { assertConfiguredLimits } from '../common/configured-limit';
import { AuditConfig } from '../config/slices/audit-config';
import { RequestLimitsConfig } from '../config/slices/request-limits-config';
import { AuditLog } from './audit-log.repository';
import { AuditEntryResponse } from './dto/audit-entry.response';
import { AuditQuery } from './dto/audit.query';

@ApiTags('audit')
@ApiBearerAuth()
@Controller('audit')
export class AuditController {
  constructor(
    private readonly audit: AuditLog,
    private readonly config: AuditConfig,
    private readonly limits: RequestLimitsConfig,
  ) {}

  /** The audit log of lifecycle operations (redactions, deletions, rebuilds, archive changes, retention passes), oldest first. */
  @Get()
  @AdminOnly()
  @ApiOperation({ summary: 'Read the audit log (admin)' })
  @ApiOkResponse({ type: [AuditEntryResponse] })
  async list(@Query() query: AuditQuery): Promise<AuditEntryResponse[]> {
    assertConfiguredLimits(query, this.limits); // above QHORUS_PAGE_LIMIT_MAX: a 400 naming it, never a short page
    return this.audit.page(query.after ?? 0, query.limit ?? this.config.pageLimitDefault);
  }
}

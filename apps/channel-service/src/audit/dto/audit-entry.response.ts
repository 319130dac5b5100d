import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One audit log entry: who did what to which channel, when and why (never the removed content). */
export class AuditEntryResponse {
  @ApiProperty({ type: 'integer', description: 'Increasing; pass the last one as `after` for the next page' })
  id: number;
  at: Date;
  @ApiProperty({ description: "The agent (or 'admin') who asked for it" })
  actor: string;
  @ApiProperty({ description: 'message.redact, channel.delete, summary.rebuild, channel.archive, channel.unarchive, channel.retention' })
  action: string;
  @ApiProperty({ description: 'The channel by name (it may since have been deleted)' })
  channel: string;
  @ApiPropertyOptional({ type: 'integer', description: 'The message, for a redaction' })
  seq?: number;
  @ApiPropertyOptional({ description: 'The reason given' })
  reason?: string;
}

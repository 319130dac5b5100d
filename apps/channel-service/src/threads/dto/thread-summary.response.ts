import { MessageType } from '@qhorus/api';
import { ApiProperty } from '@nestjs/swagger';
import { STRING_MAP } from '../../docs/schema-properties';

/** The summary of one closed thread. */
export class ThreadSummaryResponse {
  channel: string;
  correlationId: string;
  text: string;
  @ApiProperty(STRING_MAP)
  annotations: Record<string, string>;
  firstSeq: number;
  lastSeq: number;
  messageCount: number;
  @ApiProperty({ enum: MessageType, enumName: 'MessageType', description: 'The type of the message that closed the thread' })
  closedBy: MessageType;
  createdAt: Date;
}

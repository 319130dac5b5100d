import { MessageType } from '@qhorus/api';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { JSON_MAP } from '../../docs/schema-properties';

/** Who removed a message's content (DESIGN §10), when and why. */
export class RedactionResponse {
  at: Date;
  @ApiProperty({ description: "The agent (or 'admin') who redacted it" })
  by: string;
  reason: string;
}

/** The public JSON of a message. */
export class MessageResponse {
  id: string;
  channel: string;
  /** Position in the channel: gapless, unique per channel. */
  seq: number;
  @ApiProperty({ enum: MessageType, enumName: 'MessageType' })
  type: MessageType;
  sender: string;
  @ApiProperty({ type: String, nullable: true, description: 'null on a redacted message' })
  content: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'null on a redacted message' })
  topic: string | null;
  @ApiProperty({ type: String, nullable: true })
  correlationId: string | null;
  @ApiProperty({ type: Number, nullable: true })
  inReplyTo: number | null;
  @ApiProperty({ type: String, nullable: true })
  target: string | null;
  @ApiProperty({ ...JSON_MAP, nullable: true } as ApiPropertyOptions)
  metadata: Record<string, unknown> | null;
  createdAt: Date;
  @ApiProperty({ type: () => RedactionResponse, required: false, description: 'Present on a redacted message (a tombstone) only' })
  redacted?: RedactionResponse;
}

/** The answer of `POST …/messages/batch`: the stored messages, in seq order. */
export class MessageBatchResponse {
  @ApiProperty({ type: () => [MessageResponse] })
  messages: MessageResponse[];
}

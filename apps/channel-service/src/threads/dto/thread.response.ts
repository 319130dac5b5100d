import { MessageType, THREAD_STATUSES, ThreadStatus } from '@qhorus/api';
import { ApiProperty } from '@nestjs/swagger';
import { MessageResponse, RedactionResponse } from '../../message-store/dto/message.response';
import { ThreadSummaryResponse } from './thread-summary.response';

/** One thread of the durable thread index. */
export class ThreadResponse {
  channel: string;
  correlationId: string;
  @ApiProperty({ enum: MessageType, enumName: 'MessageType', description: 'The type of the message that opened (or last reopened) it' })
  type: MessageType;
  @ApiProperty({ enum: THREAD_STATUSES, enumName: 'ThreadStatus' })
  status: ThreadStatus;
  /** The sender of the message that opened (or last reopened) it. */
  opener: string;
  @ApiProperty({ type: String, nullable: true, description: 'Who owes the next step (null: anyone)' })
  owner: string | null;
  openedSeq: number;
  openedAt: Date;
  @ApiProperty({ type: Number, nullable: true, description: 'The seq that closed it (null while open)' })
  closedSeq: number | null;
  updatedSeq: number;
  updatedAt: Date;
}

/** One thread with a page of its messages and, once closed and summarised, its summary. */
export class ThreadDetailResponse extends ThreadResponse {
  @ApiProperty({ type: () => [MessageResponse] })
  messages: MessageResponse[];
  @ApiProperty({ type: () => ThreadSummaryResponse, nullable: true })
  summary: ThreadSummaryResponse | null;
}

/** One obligation of the caller's inbox. */
export class InboxItemResponse {
  channel: string;
  /** The message that opened (or reopened) the thread. */
  seq: number;
  correlationId: string;
  @ApiProperty({ enum: MessageType, enumName: 'MessageType' })
  type: MessageType;
  opener: string;
  @ApiProperty({ type: String, nullable: true })
  owner: string | null;
  @ApiProperty({ enum: ['owed', 'untargeted'], description: 'owed: targeted at (or handed to) the caller; untargeted: an open request from another agent' })
  reason: 'owed' | 'untargeted';
  @ApiProperty({ type: String, nullable: true, description: 'The request; null when it was redacted' })
  content: string | null;
  openedAt: Date;
  ageSeconds: number;
  @ApiProperty({ type: () => RedactionResponse, required: false, description: 'Present when the request was redacted (a tombstone) only' })
  redacted?: RedactionResponse;
}

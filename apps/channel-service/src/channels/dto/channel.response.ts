import { ApiProperty } from '@nestjs/swagger';

/** A channel's retention bounds (DESIGN §10): messages past either go once the summary covers them. */
export class RetentionResponse {
  @ApiProperty({ type: 'integer', nullable: true, description: 'Messages older than this many days go (null: no age bound)' })
  maxAgeDays: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Only the newest this many messages are kept (null: no count bound)' })
  maxMessages: number | null;
}

/** The public JSON of a channel. */
export class ChannelResponse {
  name: string;
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
  /** Unsummarised messages that trigger a summary job. */
  summaryThreshold: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Estimated tokens of unsummarised messages that also trigger a summary (null: off)' })
  summaryThresholdTokens: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Refresh the summary this long after the last one when messages are pending (null: off)' })
  updateAfterSeconds: number | null;
  /** The strategy that writes the channel's summary text. */
  summariser: string;
  @ApiProperty({ type: [String], nullable: true, description: 'null: public; otherwise only these agents (and the admin) can see the channel' })
  members: string[] | null;
  /** Seq of the newest message (0 when empty). */
  lastSeq: number;
  @ApiProperty({ type: 'integer', description: 'The oldest kept seq: retention removed everything before it (1 until then; lastSeq + 1 when nothing is kept)' })
  firstSeq: number;
  @ApiProperty({ type: () => RetentionResponse, description: 'Retention bounds; both null: kept for ever' })
  retention: RetentionResponse;
  @ApiProperty({ description: 'Archived: read-only, no summary jobs, listed only with ?archived=true' })
  archived: boolean;
  createdBy: string;
  createdAt: Date;
}

/** A created or reconfigured channel, with what the service wants the caller to know. */
export class ChannelWithWarningsResponse extends ChannelResponse {
  /** E.g. the chosen summariser is unavailable and a fallback is used. */
  warnings: string[];
}

/** A channel as its reader sees it (GET /channels, GET /channels/{name}): with the caller's read cursor. */
export class ReaderChannelResponse extends ChannelResponse {
  /** Every message up to and including this seq is read by the caller (0: none). */
  readThroughSeq: number;
  /** Messages after the cursor, EVENT telemetry included: `lastSeq − readThroughSeq`. */
  unread: number;
}

/** The caller's read cursor after POST /channels/{name}/read (it never moves back). */
export class ReadCursorResponse {
  /** The channel's name. */
  channel: string;
  readThroughSeq: number;
  lastSeq: number;
  unread: number;
}

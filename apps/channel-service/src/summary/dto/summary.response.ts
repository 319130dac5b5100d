import { ApiProperty } from '@nestjs/swagger';
import { STRING_MAP } from '../../docs/schema-properties';

/** The summary slot of a channel (DESIGN §6). */
export class SummaryResponse {
  channel: string;
  text: string;
  @ApiProperty(STRING_MAP)
  annotations: Record<string, string>;
  /** The last seq the text accounts for. */
  coversThroughSeq: number;
  lastSeq: number;
  @ApiProperty({ type: 'integer', description: 'The oldest kept seq: retention removed everything before it (the summary still accounts for it)' })
  firstSeq: number;
  /** lastSeq − coversThroughSeq: messages not yet summarised. */
  pending: number;
  /** Estimated tokens of the pending messages, as a projection shows them. */
  pendingTokens: number;
  /** 0 before the first summary. */
  version: number;
  @ApiProperty({ type: Date, nullable: true })
  updatedAt: Date | null;
  @ApiProperty({ type: String, nullable: true })
  updatedBy: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last job failed (null after a success)' })
  lastError: string | null;
  @ApiProperty({ type: Date, nullable: true })
  lastErrorAt: Date | null;
  /**
   * Why the text is not model-written now though the strategy calls a model: a spent model budget
   * (no model calls until it refills), or a plain `llm` channel's failing model (the text is then
   * the heuristic report of the state). Survives later commits; cleared when a model call is next let through,
   * or by the next version of a strategy that calls no model (the channel was switched away from `llm`/`tiered`).
   */
  degraded: string | null;
  @ApiProperty({ type: Date, nullable: true })
  degradedAt: Date | null;
  summariser: string;
}

/** The answer of `POST …/summary/refresh`. */
export class SummaryRefreshResponse {
  channel: string;
  /** False when nothing is pending (no job is needed). */
  queued: boolean;
  pending: number;
}

/** One earlier version of the slot. */
export class SummaryHistoryEntryResponse {
  version: number;
  text: string;
  @ApiProperty(STRING_MAP)
  annotations: Record<string, string>;
  coversFromSeq: number;
  coversThroughSeq: number;
  updatedBy: string;
  createdAt: Date;
}

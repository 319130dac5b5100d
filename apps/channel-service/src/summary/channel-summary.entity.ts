import { SummaryResult } from '@qhorus/api';

/** The summary slot of one channel. `coversThroughSeq` is the watermark: every seq ≤ it is summarised. */
export interface SummarySlot {
  channelId: string;
  text: string;
  annotations: Record<string, string>;
  coversThroughSeq: number;
  /** The channel's running token total at the watermark: pending tokens = channel.tokenTotal − this. */
  coversThroughTokens: number;
  version: number;
  updatedAt: Date | null;
  updatedBy: string | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  /**
   * Why the summary is not model-written now: the channel's model budget is spent, or a plain `llm`
   * channel's model failed (its degraded commit sets it). Other commits leave it; the next admitted
   * model call clears it.
   */
  degraded: string | null;
  degradedAt: Date | null;
}

export interface SummarySlotRow {
  channel_id: string;
  text: string;
  annotations: Record<string, string>;
  covers_through_seq: string;
  covers_through_tokens: string;
  version: number;
  updated_at: Date | null;
  updated_by: string | null;
  last_error: string | null;
  last_error_at: Date | null;
  degraded: string | null;
  degraded_at: Date | null;
}

export const SLOT_COLUMNS = 's.channel_id, s.text, s.annotations, s.covers_through_seq, s.covers_through_tokens, s.version, s.updated_at, s.updated_by, s.last_error, s.last_error_at, s.degraded, s.degraded_at';

export function toSlot(r: SummarySlotRow): SummarySlot {
  return {
    channelId: String(r.channel_id),
    text: r.text,
    annotations: r.annotations ?? {},
    coversThroughSeq: Number(r.covers_through_seq),
    coversThroughTokens: Number(r.covers_through_tokens),
    version: r.version,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by,
    lastError: r.last_error,
    lastErrorAt: r.last_error_at,
    degraded: r.degraded ?? null,
    degradedAt: r.degraded_at ?? null,
  };
}

/**
 * The previous result handed to a summariser: null before the first summary, and after a rebuild
 * or a redaction rewound the slot to empty (watermark 0, no text, no annotations).
 */
export function previousResult(slot: SummarySlot): SummaryResult | null {
  if (slot.version === 0) return null;
  if (slot.coversThroughSeq === 0 && slot.text === '' && Object.keys(slot.annotations).length === 0) return null;
  return { text: slot.text, annotations: slot.annotations };
}

export interface SummaryHistoryEntry {
  version: number;
  text: string;
  annotations: Record<string, string>;
  coversFromSeq: number;
  coversThroughSeq: number;
  updatedBy: string;
  createdAt: Date;
}

import { SummaryChannel } from '../channels/channel.entity';
import { entityTag } from '../common/entity-tag';
import { SummarySlot } from './channel-summary.entity';
import { SummaryResponse } from './dto/summary.response';

/** The JSON of `GET /channels/{name}/summary` (DESIGN §6). */
export function summaryView(channel: SummaryChannel, slot: SummarySlot): SummaryResponse {
  return {
    channel: channel.name,
    text: slot.text,
    annotations: slot.annotations,
    coversThroughSeq: slot.coversThroughSeq,
    lastSeq: channel.lastSeq,
    firstSeq: channel.firstSeq,
    pending: channel.lastSeq - slot.coversThroughSeq,
    /** Estimated tokens of the pending messages as a projection shows them (stored per message: no scan). */
    pendingTokens: Math.max(0, channel.tokenTotal - slot.coversThroughTokens),
    version: slot.version,
    updatedAt: slot.updatedAt,
    updatedBy: slot.updatedBy,
    lastError: slot.lastError,
    lastErrorAt: slot.lastErrorAt,
    degraded: slot.degraded,
    degradedAt: slot.degradedAt,
    summariser: channel.summariser,
  };
}

export type SummaryView = ReturnType<typeof summaryView>;

/**
 * The summary read's ETag: every field of the answer except the text and annotations, which a
 * version decides within one content epoch (a redaction or rebuild that rewinds the slot bumps
 * the epoch, so a version number seen again never revives an old tag).
 */
export function summaryTag(channel: SummaryChannel, view: SummaryView): string {
  const { text: _text, annotations: _annotations, ...decidingFields } = view;
  return entityTag([channel.contentEpoch, JSON.stringify(decidingFields)]);
}

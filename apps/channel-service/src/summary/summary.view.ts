import { SummaryChannel } from '../channels/channel.entity';
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

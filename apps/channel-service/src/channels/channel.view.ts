import { Channel } from './channel.entity';
import { ChannelResponse, ReaderChannelResponse } from './dto/channel.response';

/** The public JSON of a channel. */
export function channelView(c: Channel): ChannelResponse {
  return {
    name: c.name,
    description: c.description,
    summaryThreshold: c.summaryThreshold,
    summaryThresholdTokens: c.summaryThresholdTokens,
    updateAfterSeconds: c.updateAfterSeconds,
    summariser: c.summariser,
    members: c.members,
    lastSeq: c.lastSeq,
    firstSeq: c.firstSeq,
    retention: { maxAgeDays: c.retention.maxAgeDays, maxMessages: c.retention.maxMessages },
    archived: c.archivedAt !== null,
    createdBy: c.createdBy,
    createdAt: c.createdAt,
  };
}

/**
 * A channel as its reader sees it: with the reader's cursor and `unread`, the number of messages
 * after the cursor — every message, EVENT telemetry included, so it is `lastSeq − readThroughSeq`
 * and costs nothing to compute (docs/decisions.md).
 */
export function readerChannelView(c: Channel, readThroughSeq: number): ReaderChannelResponse {
  return { ...channelView(c), readThroughSeq, unread: unreadCount(c.lastSeq, readThroughSeq) };
}

export const unreadCount = (lastSeq: number, readThroughSeq: number) => Math.max(0, lastSeq - readThroughSeq);

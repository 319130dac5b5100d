import { Channel } from '../channels/channel.entity';
import { ThreadSummaryResponse } from './dto/thread-summary.response';
import { ThreadSummary } from './thread-summary.entity';

/** The JSON of `GET /channels/{name}/threads/{correlationId}/summary`. */
export function threadSummaryView(channel: Channel, s: ThreadSummary): ThreadSummaryResponse {
  return {
    channel: channel.name,
    correlationId: s.correlationId,
    text: s.text,
    annotations: s.annotations,
    firstSeq: s.firstSeq,
    lastSeq: s.lastSeq,
    messageCount: s.messageCount,
    closedBy: s.closedBy,
    createdAt: s.createdAt,
  };
}

export type ThreadSummaryView = ReturnType<typeof threadSummaryView>;

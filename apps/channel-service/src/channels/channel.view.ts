import { Channel } from './channel.entity';
import { ChannelResponse } from './dto/channel.response';

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
    createdBy: c.createdBy,
    createdAt: c.createdAt,
  };
}

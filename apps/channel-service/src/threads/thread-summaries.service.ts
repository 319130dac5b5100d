import { Injectable, NotFoundException } from '@nestjs/common';
import { Principal } from '../auth/principal';
import { ChannelsService } from '../channels/channels.service';
import { ThreadSummariesRepository } from './thread-summaries.repository';
import { threadSummaryView, ThreadSummaryView } from './thread-summary.view';

@Injectable()
export class ThreadSummariesService {
  constructor(
    private readonly channels: ChannelsService,
    private readonly summaries: ThreadSummariesRepository,
  ) {}

  /** 404 when the channel is not visible to the caller, or the thread has no summary (yet). */
  async get(channelName: string, correlationId: string, by: Principal): Promise<ThreadSummaryView> {
    const channel = await this.channels.get(channelName, by);
    const summary = await this.summaries.find(channel.id, correlationId);
    if (!summary) {
      throw new NotFoundException(`Thread '${correlationId}' in channel '${channel.name}' has no summary (it is unknown or not closed yet)`);
    }
    return threadSummaryView(channel, summary);
  }
}

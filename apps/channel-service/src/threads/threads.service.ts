import { Injectable, NotFoundException } from '@nestjs/common';
import { Principal } from '../auth/principal';
import { Channel } from '../channels/channel.entity';
import { ChannelsService } from '../channels/channels.service';
import { AppConfig } from '../config/app-config';
import { assertConfiguredLimits } from '../common/configured-limit';
import { messageView, toMessage } from '../messages/message.entity';
import { MessagesRepository } from '../messages/messages.repository';
import { InboxQuery } from './dto/inbox.query';
import { ListThreadsQuery } from './dto/list-threads.query';
import { ThreadPageQuery } from './dto/thread-page.query';
import { hasCurrentSummary, Thread } from './thread.entity';
import { inboxItemView, threadView } from './thread.view';
import { ThreadSummariesRepository } from './thread-summaries.repository';
import { threadSummaryView, ThreadSummaryView } from './thread-summary.view';
import { ThreadsRepository } from './threads.repository';

/**
 * Reads of the durable thread index: a channel's threads, one thread with its messages and
 * summary, and the caller's inbox across channels. Channel visibility is ChannelsService's (a
 * private channel is a 404 to outsiders, and never shows up in their inbox).
 */
@Injectable()
export class ThreadsService {
  constructor(
    private readonly channels: ChannelsService,
    private readonly threads: ThreadsRepository,
    private readonly messages: MessagesRepository,
    private readonly summaries: ThreadSummariesRepository,
    private readonly config: AppConfig,
  ) {}

  async list(channelName: string, query: ListThreadsQuery, by: Principal) {
    assertConfiguredLimits(query, this.config);
    const channel = await this.channels.get(channelName, by);
    const threads = await this.threads.list(channel.id, query.status ?? null, query.afterSeq ?? 0, this.pageLimit(query));
    return threads.map((t) => threadView(channel.name, t));
  }

  /** The thread, a page of its messages, and its summary once closed and summarised (else null). */
  async get(channelName: string, correlationId: string, query: ThreadPageQuery, by: Principal) {
    assertConfiguredLimits(query, this.config);
    const channel = await this.channels.get(channelName, by);
    const thread = await this.findThread(channel, correlationId);
    const rows = await this.messages.threadPage(channel.id, correlationId, query.afterSeq ?? 0, this.pageLimit(query), query.includeEvents ?? false);
    const summary = hasCurrentSummary(thread) ? await this.summaries.find(channel.id, correlationId) : null;
    return {
      ...threadView(channel.name, thread),
      messages: rows.map((r) => messageView(toMessage(r, channel.name))),
      summary: summary ? threadSummaryView(channel, summary) : null,
    };
  }

  /** 404 when the channel is not visible to the caller, the thread is unknown, open, or its last close is not summarised yet. */
  async summary(channelName: string, correlationId: string, by: Principal): Promise<ThreadSummaryView> {
    const channel = await this.channels.get(channelName, by);
    const thread = await this.threads.find(channel.id, correlationId);
    const summary = thread && hasCurrentSummary(thread) ? await this.summaries.find(channel.id, correlationId) : null;
    if (!summary) {
      throw new NotFoundException(`Thread '${correlationId}' in channel '${channel.name}' has no summary (it is unknown, open, or not summarised yet)`);
    }
    return threadSummaryView(channel, summary);
  }

  /** The caller's open obligations in every channel it may read, oldest first (a page of `limit`), and how many there are in all. */
  async inbox(query: InboxQuery, by: Principal) {
    assertConfiguredLimits(query, this.config);
    const visible = await this.channels.list(by);
    const { items, total } = await this.threads.inbox(by.name, visible.map((c) => c.id), this.pageLimit(query));
    const now = new Date();
    return { items: items.map((t) => inboxItemView(t, by.name, now)), total };
  }

  private async findThread(channel: Channel, correlationId: string): Promise<Thread> {
    const thread = await this.threads.find(channel.id, correlationId);
    if (!thread) throw new NotFoundException(`Thread '${correlationId}' not found in channel '${channel.name}'`);
    return thread;
  }

  /** The page size asked for (checked against QHORUS_PAGE_LIMIT_MAX first thing: bad input is a 400 before any lookup), or the default. */
  private pageLimit(query: { limit?: number }): number {
    return query.limit ?? this.config.QHORUS_PAGE_LIMIT_DEFAULT;
  }
}

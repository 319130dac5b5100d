import { Injectable, NotFoundException } from '@nestjs/common';
import { MessageType } from '@qhorus/api';
import { Principal } from '../auth/principal';
import { Channel } from '../channels/channel.entity';
import { ChannelsService } from '../channels/channels.service';
import { ThreadsConfig } from '../config/slices/threads-config';
import { RequestLimitsConfig } from '../config/slices/request-limits-config';
import { assertConfiguredLimits } from '../common/configured-limit';
import { messageView, toMessage } from '../message-store/message.entity';
import { MessageReadsRepository } from '../message-store/message-reads.repository';
import { assertWaitWithin, EVERY_CHANNEL, LongPollWaits, PostedMessageData } from '../message-store/long-poll-waits';
import { InboxQuery } from './dto/inbox.query';
import { ListThreadsQuery } from './dto/list-threads.query';
import { ThreadPageQuery } from './dto/thread-page.query';
import { hasCurrentSummary, Thread } from './thread.entity';
import { InboxItemView, inboxItemView, threadView } from './thread.view';
import { EMPTY_INBOX_TAG, inboxTag, noneMatchNames } from './inbox-tag';
import { ThreadSummariesRepository } from './thread-summaries.repository';
import { threadSummaryView, ThreadSummaryView } from './thread-summary.view';
import { ThreadsRepository } from './threads.repository';

/** One answer of `GET /inbox`: a page, the whole count, its ETag, and whether it is the one the caller named. */
export interface InboxPage {
  items: InboxItemView[];
  total: number;
  tag: string;
  notModified: boolean;
}

/** A post that can open, hand off or close a thread (STATUS and EVENT never change one), so an inbox may change. */
const mayChangeInbox = (m: PostedMessageData) => m.type !== MessageType.STATUS && m.type !== MessageType.EVENT;

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
    private readonly messages: MessageReadsRepository,
    private readonly summaries: ThreadSummariesRepository,
    private readonly config: ThreadsConfig,
    private readonly limits: RequestLimitsConfig,
    private readonly waits: LongPollWaits,
  ) {}

  async list(channelName: string, query: ListThreadsQuery, by: Principal) {
    assertConfiguredLimits(query, this.limits);
    const channel = await this.channels.get(channelName, by);
    const threads = await this.threads.list(channel.id, query.status ?? null, query.afterSeq ?? 0, this.pageLimit(query));
    return threads.map((t) => threadView(channel.name, t));
  }

  /** The thread, a page of its messages, and its summary once closed and summarised (else null). */
  async get(channelName: string, correlationId: string, query: ThreadPageQuery, by: Principal) {
    assertConfiguredLimits(query, this.limits);
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

  /**
   * The caller's open obligations in every channel it may read, oldest first (a page of `limit`),
   * how many there are in all, and the page's tag. With `waitMs`, a long poll: answers as soon as
   * the inbox differs from the one `ifNoneMatch` names (an empty one when absent), or at `waitMs`
   * with it unchanged (`notModified` when `ifNoneMatch` named it).
   */
  async inbox(query: InboxQuery, by: Principal, ifNoneMatch?: string, signal?: AbortSignal): Promise<InboxPage> {
    assertConfiguredLimits(query, this.limits);
    const waitMs = query.waitMs ?? 0;
    assertWaitWithin(waitMs, this.config.longPollMaxMs);
    const limit = this.pageLimit(query);
    const known = (page: InboxPage) => (ifNoneMatch === undefined ? page.tag === EMPTY_INBOX_TAG : noneMatchNames(ifNoneMatch, page.tag));
    if (waitMs === 0) {
      const page = await this.readInbox(by, limit);
      return { ...page, notModified: ifNoneMatch !== undefined && known(page) };
    }
    let last: InboxPage | undefined;
    const read = async () => {
      last = await this.readInbox(by, limit);
      return known(last) ? [] : [last];
    };
    // Access is decided by every read (the channels it lists), so there is nothing to re-check.
    const access = { by, recheck: async () => undefined };
    const [changed] = await this.waits.wait(access, EVERY_CHANNEL, waitMs, read, mayChangeInbox, signal);
    const page = changed ?? last ?? (await this.readInbox(by, limit));
    return { ...page, notModified: changed === undefined && ifNoneMatch !== undefined };
  }

  private async readInbox(by: Principal, limit: number): Promise<InboxPage> {
    const visible = await this.channels.list(by);
    const { items, total } = await this.threads.inbox(by.name, visible.map((c) => c.id), limit);
    const now = new Date();
    const views = items.map((t) => inboxItemView(t, by.name, now));
    return { items: views, total, tag: inboxTag({ items: views, total }), notModified: false };
  }

  private async findThread(channel: Channel, correlationId: string): Promise<Thread> {
    const thread = await this.threads.find(channel.id, correlationId);
    if (!thread) throw new NotFoundException(`Thread '${correlationId}' not found in channel '${channel.name}'`);
    return thread;
  }

  /** The page size asked for (checked against QHORUS_PAGE_LIMIT_MAX first thing: bad input is a 400 before any lookup), or the default. */
  private pageLimit(query: { limit?: number }): number {
    return query.limit ?? this.config.pageLimitDefault;
  }
}

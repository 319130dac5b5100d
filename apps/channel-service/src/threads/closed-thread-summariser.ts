import { Inject, Injectable, Logger } from '@nestjs/common';
import { Message, MessageType, SummaryResult } from '@qhorus/api';
import { CONTENT_SUMMARISER, SummariserRegistry } from '@qhorus/blocks-channel-summary';
import { ContentSummariser, ContentSummariserToSummariser, LevelEvent } from '@qhorus/blocks-summarisation';
import { Channel } from '../channels/channel.entity';
import { ChannelsRepository } from '../channels/channels.repository';
import { withTimeout } from '../common/with-timeout';
import { AppConfig } from '../config/app-config';
import { toMessage } from '../messages/message.entity';
import { MessagesRepository } from '../messages/messages.repository';
import { assertValidSummary } from '../summary/summary-result.validation';
import { ThreadSummariesRepository } from './thread-summaries.repository';
import { threadKey } from './thread-key';
import { ThreadsRepository } from './threads.repository';

/** Raw messages are level 0 of the pipeline's hierarchy (their summaries would be level 1). */
const MESSAGE_LEVEL = 0;

/**
 * One thread-summary job (run by the summary queue, one job per thread): when the thread index
 * says the thread is closed and its last close has no summary yet, reads the thread from Postgres
 * in chunks of QHORUS_SUMMARY_CHUNK_SIZE (each a running-summary step through
 * ContentSummariserToSummariser, grounded on the channel's description), stores the summary and
 * marks the index. Nothing is held in memory between posts: the index alone says what is due, so
 * a job lost with a crashed process is found again by the sweep.
 *
 * The summariser is the channel's strategy (its `summariser`), or the default CONTENT_SUMMARISER
 * when that strategy is unavailable (the LLM without a key) or no longer registered.
 */
@Injectable()
export class ClosedThreadSummariser {
  private readonly logger = new Logger(ClosedThreadSummariser.name);

  constructor(
    @Inject(CONTENT_SUMMARISER) private readonly fallback: ContentSummariser<Message>,
    private readonly registry: SummariserRegistry,
    private readonly channels: ChannelsRepository,
    private readonly messages: MessagesRepository,
    private readonly threads: ThreadsRepository,
    private readonly summaries: ThreadSummariesRepository,
    private readonly config: AppConfig,
  ) {}

  /** Runs the job; returns whether the thread is due again (it was reopened and closed meanwhile). Throws to be retried. */
  async run(channelId: string, correlationId: string): Promise<boolean> {
    const thread = await this.threads.findDueForSummary(channelId, correlationId);
    if (!thread) return false; // not closed, already summarised, or gone
    const channel = await this.channels.findById(channelId);
    if (!channel) return false;
    try {
      const { result, first, last, count, closedBy } = await this.summarise(channel, correlationId, thread.closedSeq!);
      await this.summaries.upsert({
        channelId,
        correlationId,
        text: result.text,
        annotations: { ...result.annotations },
        firstSeq: first,
        lastSeq: last,
        messageCount: count,
        closedBy,
      });
      return await this.threads.markSummarised(channelId, correlationId, thread.closedSeq!);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.logger.warn({ channel: channel.name, correlationId, err: message }, 'thread summary failed');
      await this.threads.recordSummaryError(channelId, correlationId, message);
      throw err;
    }
  }

  private async summarise(channel: Channel, correlationId: string, closedSeq: number) {
    const step = new ContentSummariserToSummariser(this.summariserFor(channel), { preamble: channel.description });
    const key = threadKey(channel.id, correlationId);
    const chunkSize = this.config.QHORUS_SUMMARY_CHUNK_SIZE;
    let result: SummaryResult | null = null;
    let first = 0;
    let last = 0;
    let count = 0;
    let closedBy: MessageType | null = null;
    for (;;) {
      const rows = await this.messages.threadPage(channel.id, correlationId, last, chunkSize);
      if (rows.length === 0) break;
      const chunk = rows.map((r) => toMessage(r, channel.name));
      const events: LevelEvent<Message>[] = chunk.map((m) => ({ key, level: MESSAGE_LEVEL, at: m.createdAt, payload: m }));
      result = await withTimeout(step.summarise(events, result), this.config.QHORUS_SUMMARY_TIMEOUT_MS, `thread summariser '${channel.summariser}'`);
      assertValidSummary(result, channel.summariser);
      if (count === 0) first = chunk[0].seq;
      count += chunk.length;
      last = chunk[chunk.length - 1].seq;
      closedBy = chunk.find((m) => m.seq === closedSeq)?.type ?? closedBy;
      if (rows.length < chunkSize) break;
    }
    if (!result || closedBy === null) throw new Error(`thread '${correlationId}' has no message at its closed seq ${closedSeq}`);
    return { result, first, last, count, closedBy };
  }

  private summariserFor(channel: Channel): ContentSummariser<Message> {
    const name = channel.summariser;
    return this.registry.has(name) && this.registry.availability(name).available ? this.registry.get(name) : this.fallback;
  }
}

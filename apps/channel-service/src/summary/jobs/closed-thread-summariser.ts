import { Inject, Injectable, Logger } from '@nestjs/common';
import { Message, MessageType, ModelCallMeter, SummaryResult } from '@qhorus/api';
import { assertValidSummary, CONTENT_SUMMARISER, SummariserRegistry } from '@qhorus/blocks-channel-summary';
import {
  ANNOTATION_TIER_FALLBACK,
  ContentSummariser,
  ContentSummariserToSummariser,
  LevelEvent,
  SummariserUnavailableError,
  TIER_FALLBACK_REASON_MAX_CHARS,
} from '@qhorus/blocks-summarisation';
import { Channel } from '../../channels/channel.entity';
import { ChannelsRepository } from '../../channels/channels.repository';
import { SummaryConfig } from '../../config/slices/summary-config';
import { ModelUsageRepository } from '../../cost/model-usage.repository';
import { MessageReadsRepository } from '../../message-store/message-reads.repository';
import { ThreadSummariesRepository } from '../../threads/thread-summaries.repository';
import { threadKey } from '../../threads/thread-key';
import { ThreadsRepository } from '../../threads/threads.repository';
import { ChannelModelMeters } from './channel-model-meters';
import { foldInChunks } from './fold-in-chunks';
import { callSummariser, isBuiltInSummariser, summaryErrorText } from './summariser-call';

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
 * when that strategy is unavailable (the LLM without a key) or no longer registered. A model call
 * goes through the channel's budget like the channel summary's own (one meter, the same metrics);
 * while the channel's summary is cooling down after a failure, or once the model is refused (a
 * spent budget), the thread is summarised by the default instead, saying why in `tierFallback`:
 * a closing message never costs a model call the channel's guards would not allow.
 */
@Injectable()
export class ClosedThreadSummariser {
  private readonly logger = new Logger(ClosedThreadSummariser.name);

  constructor(
    @Inject(CONTENT_SUMMARISER) private readonly fallback: ContentSummariser<Message>,
    private readonly registry: SummariserRegistry,
    private readonly channels: ChannelsRepository,
    private readonly messages: MessageReadsRepository,
    private readonly threads: ThreadsRepository,
    private readonly summaries: ThreadSummariesRepository,
    private readonly config: SummaryConfig,
    private readonly modelUsage: ModelUsageRepository,
    private readonly meters: ChannelModelMeters,
  ) {}

  /** Runs the job; returns whether the thread is due again (it was reopened and closed meanwhile). Throws to be retried. */
  async run(channelId: string, correlationId: string): Promise<boolean> {
    const thread = await this.threads.findDueForSummary(channelId, correlationId);
    if (!thread) return false; // not closed, already summarised, or gone
    const channel = await this.channels.findById(channelId);
    if (!channel) return false;
    // Read before the messages: a redaction meanwhile moves it, and the summary is not stored.
    const epoch = await this.summaries.contentEpoch(channelId);
    if (epoch === null) return false;
    try {
      const { result, first, last, count, closedBy } = await this.summarise(channel, correlationId, thread.closedSeq!);
      const stored = await this.summaries.upsert({
        channelId,
        correlationId,
        text: result.text,
        annotations: { ...result.annotations },
        firstSeq: first,
        lastSeq: last,
        messageCount: count,
        closedBy,
      }, epoch);
      if (stored === null) return true; // written from content redacted meanwhile: dropped, summarise again
      return await this.threads.markSummarised(channelId, correlationId, thread.closedSeq!);
    } catch (err) {
      // As a channel summary's failure: the log gets the message (content-free), summary_error the full text.
      this.logger.warn({ channel: channel.name, correlationId, err: err instanceof Error ? err.message : String(err) }, 'thread summary failed');
      await this.threads.recordSummaryError(channelId, correlationId, summaryErrorText(err));
      throw err;
    }
  }

  /** The thread with the channel's strategy, or with the default when the model may not be called now (see the class comment). */
  private async summarise(channel: Channel, correlationId: string, closedSeq: number) {
    const strategy = this.summariserFor(channel);
    // The default calls no model: no cooldown to read, nothing to meter.
    if (strategy === this.fallback) return this.summariseWith(strategy, undefined, channel, correlationId, closedSeq);
    const coolingDown = await this.modelUsage.coolingDown(channel.id, this.config.failureBackoffMs);
    if (coolingDown !== null) {
      const why = `the channel's summariser is cooling down after a failure: failed at ${coolingDown.toISOString()} (the channel summary's lastError says why)`;
      return this.summariseWithFallback(why, channel, correlationId, closedSeq);
    }
    const modelCalls = this.meters.meterFor(channel, false);
    try {
      return await this.summariseWith(strategy, modelCalls, channel, correlationId, closedSeq);
    } catch (err) {
      modelCalls.release();
      if (!(err instanceof SummariserUnavailableError)) throw err;
      return this.summariseWithFallback(err.message, channel, correlationId, closedSeq);
    }
  }

  private async summariseWithFallback(reason: string, channel: Channel, correlationId: string, closedSeq: number) {
    const done = await this.summariseWith(this.fallback, undefined, channel, correlationId, closedSeq);
    const why = `${channel.summariser}->default: ${reason}`.slice(0, TIER_FALLBACK_REASON_MAX_CHARS);
    return { ...done, result: { text: done.result.text, annotations: { ...done.result.annotations, [ANNOTATION_TIER_FALLBACK]: why } } };
  }

  private async summariseWith(summariser: ContentSummariser<Message>, modelCalls: ModelCallMeter | undefined, channel: Channel, correlationId: string, closedSeq: number) {
    const key = threadKey(channel.id, correlationId);
    const chunkSize = this.config.chunkSize;
    // Filled in chunk by chunk (a closure's writes: an object, so the checks below see them).
    const read: { result: SummaryResult | null; first: number; last: number; count: number; closedBy: MessageType | null } = { result: null, first: 0, last: 0, count: 0, closedBy: null };
    await foldInChunks({
      channelName: channel.name,
      afterSeq: 0,
      throughSeq: null,
      chunkSize,
      read: (afterSeq) => this.messages.threadPage(channel.id, correlationId, afterSeq, chunkSize, true), // the summary sees what a channel summary sees
      step: async (chunk) => {
        const events: LevelEvent<Message>[] = chunk.map((m) => ({ key, level: MESSAGE_LEVEL, at: m.createdAt, payload: m }));
        const previous = read.result;
        read.result = await callSummariser(
          (signal) => new ContentSummariserToSummariser(summariser, { preamble: channel.description, signal, modelCalls }).summarise(events, previous),
          `thread summariser '${channel.summariser}'`,
          this.config,
          summariser === this.fallback || isBuiltInSummariser(channel.summariser) ? null : channel.summariser,
        );
        assertValidSummary(read.result, channel.summariser); // blank text or a non-string annotation fails the job, naming the summariser
        if (read.count === 0) read.first = chunk[0].seq;
        read.count += chunk.length;
        read.last = chunk[chunk.length - 1].seq;
        read.closedBy = chunk.find((m) => m.seq === closedSeq)?.type ?? read.closedBy;
        return read.last;
      },
    });
    const { result, first, last, count, closedBy } = read;
    if (!result || closedBy === null) throw new Error(`thread '${correlationId}' has no message at its closed seq ${closedSeq}`);
    return { result, first, last, count, closedBy };
  }

  private summariserFor(channel: Channel): ContentSummariser<Message> {
    const name = channel.summariser;
    return this.registry.has(name) && this.registry.availability(name).available ? this.registry.get(name) : this.fallback;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Message, SummaryResult } from '@qhorus/api';
import { CONTENT_SUMMARISER } from '@qhorus/blocks-channel-summary';
import { ContentSummariser, ContentSummariserToSummariser, LevelEvent } from '@qhorus/blocks-summarisation';
import { ChannelsRepository } from '../channels/channels.repository';
import { withTimeout } from '../common/with-timeout';
import { AppConfig } from '../config/app-config';
import { toMessage } from '../messages/message.entity';
import { MessagesRepository } from '../messages/messages.repository';
import { assertValidSummary } from '../summary/summary-result.validation';
import { ThreadSummariesRepository } from './thread-summaries.repository';
import { ThreadSummary } from './thread-summary.entity';
import { closesThread, threadKey } from './thread-key';
import { toThreadEvent } from './thread-event';

/** Name used in errors and logs for the summariser thread summaries run. */
const THREAD_SUMMARISER_NAME = 'CONTENT_SUMMARISER';

/**
 * Summarises one closed thread and stores it. The thread is read IN FULL from Postgres, not taken
 * from the pipeline's in-memory group: that group only holds what this process saw since it
 * started, so a thread opened before a restart, or partly posted through another instance, would
 * otherwise be summarised from a fragment. Postgres is the source of truth; the pipeline only
 * decides *when*.
 *
 * The summariser is the injected CONTENT_SUMMARISER (the one the summary slot's default strategy
 * uses), run through ContentSummariserToSummariser: the same algorithm on the pipeline path. A
 * long thread is taken in chunks of QHORUS_SUMMARY_CHUNK_SIZE, each a running-summary step.
 */
@Injectable()
export class ClosedThreadSummariser {
  constructor(
    @Inject(CONTENT_SUMMARISER) private readonly content: ContentSummariser<Message>,
    private readonly channels: ChannelsRepository,
    private readonly messages: MessagesRepository,
    private readonly summaries: ThreadSummariesRepository,
    private readonly config: AppConfig,
  ) {}

  /** The stored summary, or null when the thread (or its channel) has nothing closed to summarise. */
  async summariseAndStore(channelId: string, correlationId: string): Promise<ThreadSummary | null> {
    const channel = await this.channels.findById(channelId);
    if (!channel) return null; // deleted meanwhile
    const thread = (await this.messages.thread(channelId, correlationId)).map((row) => toMessage(row, channel.name));
    const closing = lastClosing(thread);
    if (!closing) return null;

    const step = new ContentSummariserToSummariser(this.content, { preamble: channel.description });
    const events = thread.map((m) => toThreadEvent(threadKey(channelId, correlationId), m));
    let result: SummaryResult | null = null;
    for (let from = 0; from < events.length; from += this.config.QHORUS_SUMMARY_CHUNK_SIZE) {
      const chunk: LevelEvent<Message>[] = events.slice(from, from + this.config.QHORUS_SUMMARY_CHUNK_SIZE);
      result = await withTimeout(step.summarise(chunk, result), this.config.QHORUS_SUMMARY_TIMEOUT_MS, `thread summariser (${THREAD_SUMMARISER_NAME})`);
      assertValidSummary(result, THREAD_SUMMARISER_NAME);
    }
    return this.summaries.upsert({
      channelId,
      correlationId,
      text: result!.text,
      annotations: { ...result!.annotations },
      firstSeq: thread[0].seq,
      lastSeq: thread[thread.length - 1].seq,
      messageCount: thread.length,
      closedBy: closing.type,
    });
  }
}

/** The last message that closed the thread (a thread may be handed off, then done). */
function lastClosing(thread: readonly Message[]): Message | null {
  for (let i = thread.length - 1; i >= 0; i--) if (closesThread(thread[i])) return thread[i];
  return null;
}

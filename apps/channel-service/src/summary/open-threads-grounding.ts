import { Injectable } from '@nestjs/common';
import { Message, SummaryResult } from '@qhorus/api';
import { ChannelSummariser, dropsOpenThreads, groundOpenThreads, OPEN_THREADS_CAP, STATE_KEYS } from '@qhorus/blocks-channel-summary';
import { ThreadsRepository } from '../threads/threads.repository';

/**
 * Keeps a summary state past its open-thread cap true (DESIGN §3: openThreads are the threads not
 * yet closed). The tracker's state is bounded: past OPEN_THREADS_CAP it lists the newest and counts
 * the rest, and from annotations alone it cannot see a dropped thread close nor refill the list.
 * So when the previous state dropped some, the previous state handed to the next fold lists the
 * threads open as of its watermark from the durable thread index (the newest, and every one the
 * batch touches) with the exact count. Costs one indexed query, only in such channels.
 */
@Injectable()
export class OpenThreadsGrounding {
  constructor(private readonly threads: ThreadsRepository) {}

  async previousFor(channelId: string, hook: ChannelSummariser, previous: SummaryResult | null, throughSeq: number, batch: readonly Message[]): Promise<SummaryResult | null> {
    if (previous === null || !dropsOpenThreads(previous.annotations) || !hook.tracks(STATE_KEYS.openThreads)) return previous;
    const named = [...new Set(batch.flatMap((m) => (m.correlationId === null ? [] : [m.correlationId])))];
    const { threads, total } = await this.threads.openAsOf(channelId, throughSeq, OPEN_THREADS_CAP, named);
    return { text: previous.text, annotations: groundOpenThreads(previous.annotations, threads, total) };
  }
}

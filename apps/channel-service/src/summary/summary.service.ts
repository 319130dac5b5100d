import { ConflictException, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { SummaryResult } from '@qhorus/api';
import { DEGRADED_KEYS, SummariserRegistry } from '@qhorus/blocks-channel-summary';
import { ANNOTATION_TEXT_TRUNCATED, withoutAnnotations } from '@qhorus/blocks-summarisation';
import { Principal } from '../auth/principal';
import { assertConfiguredLimits } from '../common/configured-limit';
import { RequestLimitsConfig } from '../config/slices/request-limits-config';
import { SummaryConfig } from '../config/slices/summary-config';
import { MessageReadsRepository } from '../message-store/message-reads.repository';
import { Channel } from '../channels/channel.entity';
import { canAccess, channelNotFound } from '../channels/channel-access';
import { channelArchived } from '../channels/channel-archive.service';
import { previousResult, SummaryHistoryEntry, SummarySlot } from './channel-summary.entity';
import { DEFAULT_HISTORY_LIMIT, HistoryQuery } from './dto/history.query';
import { OverrideSummaryDto } from './dto/override-summary.dto';
import { SummaryQueue } from './queue/summary-queue';
import { StaleSummaryVersionError, SummaryRepository } from './summary.repository';
import { SummaryUpdatedEvent } from './summary-updated.event';
import { summaryTag, summaryView, SummaryView } from './summary.view';
import { OpenThreadsGrounding } from './open-threads-grounding';
import { foldInChunks } from './jobs/fold-in-chunks';

@Injectable()
export class SummaryService {
  constructor(
    private readonly summaries: SummaryRepository,
    private readonly queue: SummaryQueue,
    private readonly events: EventEmitter2,
    private readonly messages: MessageReadsRepository,
    private readonly summarisers: SummariserRegistry,
    private readonly config: SummaryConfig,
    private readonly limits: RequestLimitsConfig,
    private readonly grounding: OpenThreadsGrounding,
  ) {}

  async get(channelName: string, by: Principal): Promise<SummaryView> {
    return (await this.getTagged(channelName, by)).view;
  }

  /** The summary and its ETag (conditional reads). */
  async getTagged(channelName: string, by: Principal): Promise<{ view: SummaryView; tag: string }> {
    const found = await this.summaries.findSummaryByChannelName(channelName);
    if (!found || !canAccess(found.channel, by)) throw channelNotFound(channelName);
    const view = summaryView(found.channel, found.slot);
    return { view, tag: summaryTag(found.channel, view) };
  }

  /** Asks for a summary now, whatever the threshold: recorded in Postgres, then enqueued. */
  async refresh(channelName: string, by: Principal): Promise<{ channel: string; queued: boolean; pending: number }> {
    const { channel, slot } = await this.load(channelName, by);
    if (channel.archivedAt !== null) throw channelArchived(channel.name);
    const pending = channel.lastSeq - slot.coversThroughSeq;
    if (pending === 0) return { channel: channel.name, queued: false, pending };
    await this.summaries.requestRefresh(channel.id);
    const queued = await this.queue.enqueue(channel.id);
    return { channel: channel.name, queued, pending };
  }

  /**
   * Manual override: new text, watermark to lastSeq, as a new version. No model call, but the
   * state tracker still accounts for every message between the old and the new watermark, in the
   * same commit, so the state covers what the text claims to (DESIGN §3): a request answered
   * before the override is not left open. Other annotations are kept.
   */
  async override(channelName: string, dto: OverrideSummaryDto, by: Principal): Promise<SummaryView> {
    assertConfiguredLimits(dto, this.limits);
    const { channel, slot } = await this.load(channelName, by);
    if (channel.archivedAt !== null) throw channelArchived(channel.name);
    if (dto.expectedVersion != null && dto.expectedVersion !== slot.version) {
      throw new ConflictException(`summary is at version ${slot.version}, not ${dto.expectedVersion}`);
    }
    const throughSeq = Math.max(channel.lastSeq, slot.coversThroughSeq);
    const state = await this.accountFor(channel, slot, throughSeq);
    try {
      const { slot: committed } = await this.summaries.commit({
        channelId: channel.id,
        historyKeep: this.config.historyKeep,
        expectedVersion: slot.version,
        // A text written by hand was not cut, nor a degraded report: marks describing the previous text go.
        result: { text: dto.text, annotations: withoutAnnotations(state.annotations, [ANNOTATION_TEXT_TRUNCATED, DEGRADED_KEYS.degraded, DEGRADED_KEYS.reason]) },
        coversFromSeq: slot.coversThroughSeq + 1,
        coversThroughSeq: throughSeq,
        updatedBy: by.name,
      });
      this.events.emit(SummaryUpdatedEvent.NAME, new SummaryUpdatedEvent(channel.id, channel.name, committed.version, committed.coversThroughSeq, by.name));
      return summaryView({ ...channel, lastSeq: Math.max(channel.lastSeq, committed.coversThroughSeq) }, committed);
    } catch (e) {
      if (e instanceof StaleSummaryVersionError) throw new ConflictException('summary changed concurrently; read it again and retry');
      throw e;
    }
  }

  /** The slot's result with the state folded over (coversThroughSeq, throughSeq], chunk by chunk (the tracker's state is bounded). */
  private async accountFor(channel: Channel, slot: SummarySlot, throughSeq: number): Promise<SummaryResult> {
    // The channel's own strategy decides which state keys it owns; one no longer registered, the default.
    const hook = this.summarisers.hookFor(this.summarisers.has(channel.summariser) ? channel.summariser : null);
    let result = previousResult(slot) ?? { text: slot.text, annotations: {} };
    await foldInChunks({
      channelName: channel.name,
      afterSeq: slot.coversThroughSeq,
      throughSeq,
      chunkSize: this.config.chunkSize,
      read: (afterSeq) => this.messages.range(channel.id, afterSeq, throughSeq, this.config.chunkSize, true),
      step: async (batch, after) => {
        result = hook.account(await this.grounding.previousFor(channel.id, hook, result, after, batch), batch);
        return batch[batch.length - 1].seq;
      },
    });
    return result;
  }

  /** Newest first; `beforeVersion` pages on to older versions (only the newest QHORUS_SUMMARY_HISTORY_KEEP are kept). */
  async history(channelName: string, by: Principal, query: HistoryQuery = {}): Promise<SummaryHistoryEntry[]> {
    const { channel } = await this.load(channelName, by);
    return this.summaries.history(channel.id, query.limit ?? DEFAULT_HISTORY_LIMIT, query.beforeVersion);
  }

  private async load(channelName: string, by: Principal): Promise<{ channel: Channel; slot: SummarySlot }> {
    const found = await this.summaries.findByChannelName(channelName);
    if (!found || !canAccess(found.channel, by)) throw channelNotFound(channelName);
    return found;
  }
}

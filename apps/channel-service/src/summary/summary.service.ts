import { ConflictException, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Principal } from '../auth/principal';
import { AppConfig } from '../config/app-config';
import { Channel } from '../channels/channel.entity';
import { canAccess, channelNotFound } from '../channels/channel-access';
import { SummaryHistoryEntry, SummarySlot } from './channel-summary.entity';
import { DEFAULT_HISTORY_LIMIT, HistoryQuery } from './dto/history.query';
import { OverrideSummaryDto } from './dto/override-summary.dto';
import { SummaryQueue } from './queue/summary-queue';
import { StaleSummaryVersionError, SummaryRepository } from './summary.repository';
import { SummaryUpdatedEvent } from './summary-updated.event';
import { summaryView, SummaryView } from './summary.view';

@Injectable()
export class SummaryService {
  constructor(
    private readonly summaries: SummaryRepository,
    private readonly queue: SummaryQueue,
    private readonly events: EventEmitter2,
    private readonly config: AppConfig,
  ) {}

  async get(channelName: string, by: Principal): Promise<SummaryView> {
    const { channel, slot } = await this.load(channelName, by);
    return summaryView(channel, slot);
  }

  /** Asks for a summary now, whatever the threshold: recorded in Postgres, then enqueued. */
  async refresh(channelName: string, by: Principal): Promise<{ channel: string; queued: boolean; pending: number }> {
    const { channel, slot } = await this.load(channelName, by);
    const pending = channel.lastSeq - slot.coversThroughSeq;
    if (pending === 0) return { channel: channel.name, queued: false, pending };
    await this.summaries.requestRefresh(channel.id);
    const queued = await this.queue.enqueue(channel.id);
    return { channel: channel.name, queued, pending };
  }

  /** Manual override: new text, annotations kept, watermark to lastSeq, as a new version. */
  async override(channelName: string, dto: OverrideSummaryDto, by: Principal): Promise<SummaryView> {
    const { channel, slot } = await this.load(channelName, by);
    if (dto.expectedVersion !== undefined && dto.expectedVersion !== slot.version) {
      throw new ConflictException(`summary is at version ${slot.version}, not ${dto.expectedVersion}`);
    }
    try {
      const { slot: committed } = await this.summaries.commit({
        channelId: channel.id,
        historyKeep: this.config.QHORUS_SUMMARY_HISTORY_KEEP,
        expectedVersion: slot.version,
        result: { text: dto.text, annotations: slot.annotations },
        coversFromSeq: slot.coversThroughSeq + 1,
        coversThroughSeq: Math.max(channel.lastSeq, slot.coversThroughSeq),
        updatedBy: by.name,
      });
      this.events.emit(SummaryUpdatedEvent.NAME, new SummaryUpdatedEvent(channel.id, channel.name, committed.version, committed.coversThroughSeq, by.name));
      return summaryView({ ...channel, lastSeq: Math.max(channel.lastSeq, committed.coversThroughSeq) }, committed);
    } catch (e) {
      if (e instanceof StaleSummaryVersionError) throw new ConflictException('summary changed concurrently; read it again and retry');
      throw e;
    }
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

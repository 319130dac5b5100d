import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { AuditAction, AuditLog } from '../audit/audit-log.repository';
import { Principal } from '../auth/principal';
import { channelNotFound } from '../channels/channel-access';
import { ChannelsService } from '../channels/channels.service';
import { SummaryQueue } from '../summary/queue/summary-queue';
import { SummaryUpdatedEvent } from '../summary/summary-updated.event';
import { SummaryRebuildResponse } from './dto/rebuild.response';
import { assertCreatorOrAdmin } from './lifecycle-permissions';
import { LifecycleRepository } from './lifecycle.repository';

export const REBUILD_NOTE =
  'Every summary version was dropped, the base included: the summary is rebuilt from the messages still kept, ' +
  'so what it remembered of messages retention already removed is gone with it.';

/** Rebuild of a channel's summary and deletion of a channel (DESIGN §10), each one transaction with its audit entry. */
@Injectable()
export class ChannelLifecycleService {
  private readonly logger = new Logger(ChannelLifecycleService.name);

  constructor(
    private readonly channels: ChannelsService,
    private readonly lifecycle: LifecycleRepository,
    private readonly audit: AuditLog,
    private readonly queue: SummaryQueue,
    private readonly events: EventEmitter2,
  ) {}

  /** Drops every summary version (the base included) and summarises the kept messages from empty. */
  async rebuildSummary(channelName: string, by: Principal): Promise<SummaryRebuildResponse> {
    const channel = await this.channels.get(channelName, by);
    assertCreatorOrAdmin(channel, by, 'rebuild the summary of');
    const updatedBy = `rebuild:${by.name}`;
    const slot = await this.lifecycle.transaction(async (tx) => {
      // No slot: the channel was deleted since it was read.
      if (!(await this.lifecycle.lockSlot(tx, channel.id))) throw channelNotFound(channelName);
      const rebuilt = await this.lifecycle.rebuild(tx, channel.id, updatedBy);
      await this.lifecycle.bumpEpoch(tx, channel.id);
      await this.audit.record({ actor: by.name, action: AuditAction.RebuildSummary, channel: channel.name }, tx);
      return rebuilt;
    });
    this.events.emit(SummaryUpdatedEvent.NAME, new SummaryUpdatedEvent(channel.id, channel.name, slot.version, slot.coversThroughSeq, updatedBy));
    const queued = await this.queue.enqueue(channel.id);
    return { channel: channel.name, version: slot.version, queued, note: REBUILD_NOTE };
  }

  /** Deletes the channel and everything derived from it (queued jobs included); the name is free again. */
  async deleteChannel(channelName: string, by: Principal): Promise<void> {
    const channel = await this.channels.get(channelName, by);
    assertCreatorOrAdmin(channel, by, 'delete');
    const threadKeys = await this.lifecycle.dueThreadKeys(channel.id);
    const deleted = await this.lifecycle.transaction(async (tx) => {
      await this.lifecycle.lockSlot(tx, channel.id);
      const gone = await this.lifecycle.deleteChannel(tx, channel.id);
      if (gone) await this.audit.record({ actor: by.name, action: AuditAction.DeleteChannel, channel: channel.name }, tx);
      return gone;
    });
    if (!deleted) throw channelNotFound(channelName);
    await this.queue.forget([{ channelId: channel.id }, ...threadKeys.map((correlationId) => ({ channelId: channel.id, correlationId }))]);
    this.logger.log({ channel: channel.name, by: by.name }, 'channel deleted');
  }
}

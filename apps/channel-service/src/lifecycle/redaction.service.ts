import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { AuditAction, AuditLog } from '../audit/audit-log.repository';
import { Principal } from '../auth/principal';
import { Channel } from '../channels/channel.entity';
import { ChannelsService } from '../channels/channels.service';
import { fieldProblem } from '../common/validation.pipe';
import { LifecycleConfig } from '../config/slices/lifecycle-config';
import { StoredMessage, toMessage } from '../message-store/message.entity';
import { SummaryQueue } from '../summary/queue/summary-queue';
import { SummaryUpdatedEvent } from '../summary/summary-updated.event';
import { assertMayRedact } from './lifecycle-permissions';
import { LifecycleRepository, SlotVersion } from './lifecycle.repository';

const noSuchMessage = (channel: Channel, seq: number) => new NotFoundException(`Channel '${channel.name}' has no message ${seq}`);

/** Who the slot's rewind is recorded as (`updatedBy`). */
const rewoundBy = (actor: string) => `redaction:${actor}`;

/**
 * Redaction (DESIGN §10): in one transaction the messages become tombstones, every summary
 * version written from them goes and the slot rewinds to the newest kept version before the
 * first of them (never older than the base), thread summaries of their threads go, the channel's
 * content epoch moves and the audit log records it. Then a job replays forward over the
 * redacted history. A job that read the content before loses its compare-and-set (the slot got
 * a new version under the lock) and continues from the rewound watermark.
 */
@Injectable()
export class RedactionService {
  private readonly logger = new Logger(RedactionService.name);

  constructor(
    private readonly channels: ChannelsService,
    private readonly lifecycle: LifecycleRepository,
    private readonly audit: AuditLog,
    private readonly queue: SummaryQueue,
    private readonly events: EventEmitter2,
    private readonly config: LifecycleConfig,
  ) {}

  /** Redacts message `seq` of the channel; an already redacted one answers its tombstone as it is. */
  async redact(channelName: string, seq: number, reason: string, by: Principal): Promise<StoredMessage> {
    this.checkReason(reason);
    const channel = await this.channels.get(channelName, by);
    const row = await this.lifecycle.findMessage(channel.id, seq);
    if (!row) throw noSuchMessage(channel, seq);
    assertMayRedact(channel, row.sender, by);
    if (row.redacted_at !== null) return toMessage(row, channel.name);
    const [tombstone] = await this.redactInChannel(channel, [seq], reason, by.name);
    if (tombstone) return tombstone;
    // Redacted by someone else in between: their tombstone stands. Removed in between (a retention
    // step, the channel's deletion): there is nothing to redact any more.
    const now = await this.lifecycle.findMessage(channel.id, seq);
    if (!now) throw noSuchMessage(channel, seq);
    return toMessage(now, channel.name);
  }

  /**
   * Redacts those of `seqs` (one channel) not yet redacted, all or nothing, one audit entry each.
   * Returns the new tombstones. Used by `redact` and by an agent's erasure (in bounded batches).
   */
  async redactInChannel(channel: Channel, seqs: readonly number[], reason: string, actor: string): Promise<StoredMessage[]> {
    const outcome = await this.lifecycle.transaction(async (tx) => {
      const slot = await this.lifecycle.lockSlot(tx, channel.id);
      const rows = await this.lifecycle.tombstone(tx, channel.id, seqs, actor, reason);
      if (rows.length === 0 || !slot) return { rows, summary: null };
      const first = Math.min(...rows.map((r) => Number(r.seq)));
      let summary: SlotVersion;
      if (slot.coversThroughSeq >= first) {
        // The base survives when it was written before the first redacted message (retention keeps that so).
        const keepBase = slot.baseVersion !== null && slot.baseCoversThroughSeq !== null && slot.baseCoversThroughSeq < first ? slot.baseVersion : null;
        summary = await this.lifecycle.rewind(tx, channel.id, first, rewoundBy(actor), keepBase);
      } else {
        summary = await this.lifecycle.bumpSlotVersion(tx, channel.id, rewoundBy(actor));
      }
      await this.lifecycle.bumpEpoch(tx, channel.id);
      const threads = [...new Set(rows.map((r) => r.correlation_id).filter((c): c is string => c !== null))];
      await this.lifecycle.dropThreadSummaries(tx, channel.id, threads);
      for (const r of rows) await this.audit.record({ actor, action: AuditAction.Redact, channel: channel.name, seq: Number(r.seq), reason }, tx);
      return { rows, summary, threads };
    });
    if (outcome.summary) {
      this.logger.log({ channel: channel.name, redacted: outcome.rows.length, summaryVersion: outcome.summary.version, coversThroughSeq: outcome.summary.coversThroughSeq }, 'messages redacted');
      this.events.emit(SummaryUpdatedEvent.NAME, new SummaryUpdatedEvent(channel.id, channel.name, outcome.summary.version, outcome.summary.coversThroughSeq, rewoundBy(actor)));
      await this.queue.enqueue(channel.id);
      for (const correlationId of outcome.threads ?? []) await this.queue.enqueueThread(channel.id, correlationId);
    }
    return outcome.rows.map((r) => toMessage(r, channel.name));
  }

  private checkReason(reason: string): void {
    const max = this.config.redactionReasonMaxChars;
    if (reason.length > max) throw fieldProblem('reason', `must be at most ${max} characters (QHORUS_REDACTION_REASON_MAX_CHARS)`);
  }
}

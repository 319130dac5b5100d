import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AuditAction, AuditLog } from '../audit/audit-log.repository';
import { RetentionConfig } from '../config/slices/retention-config';
import { Database, Queryable } from '../database/database';
import { DueChannel, NextLook, RetentionRepository } from './retention.repository';
import { nextAgeDueAt, nextCountDueSeq, nextRetentionStep, RetentionChannelState, RetentionPolicy } from './retention-rule';

/** Who the audit log names for a retention pass (no agent asked for it). */
export const RETENTION_ACTOR = 'retention';

/** What one pass did. */
export interface RetentionPassResult {
  batches: number;
  channels: number;
  messages: number;
  threads: number;
}

/**
 * The retention pass (DESIGN §10). Every QHORUS_RETENTION_SWEEP_MS, on worker processes, it takes
 * the due channels in batches of QHORUS_RETENTION_BATCH, each batch ONE transaction: one indexed
 * query finds and locks them (SKIP LOCKED, so several instances share the work), then for each
 * the retention rule picks a kept summary version to remove up to (at most about
 * QHORUS_RETENTION_BATCH_MESSAGES messages), and the messages, the closed threads left without
 * any, the new kept start, the base version, the content epoch and one audit row are written
 * together. A crash rolls the whole batch back. A channel with more to remove is due again at
 * once (the next batch of the same pass); otherwise when its age bound next lets something go,
 * or never until a summary commit re-arms it. Scheduled and stopped like the summary sweep.
 */
@Injectable()
export class RetentionSweepService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RetentionSweepService.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopping = false;

  constructor(
    private readonly db: Database,
    private readonly repository: RetentionRepository,
    private readonly audit: AuditLog,
    private readonly config: RetentionConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runsWorker) return;
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.pass().then(() => undefined).finally(() => (this.running = null));
    }, this.config.sweepMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Runs batches until none finds a due channel (or the service stops). Failures are logged; the next interval tries again. */
  async pass(): Promise<RetentionPassResult> {
    const total: RetentionPassResult = { batches: 0, channels: 0, messages: 0, threads: 0 };
    try {
      while (!this.stopping) {
        const batch = await this.db.transaction((tx) => this.batch(tx));
        if (batch.channels === 0) break;
        total.batches++;
        total.channels += batch.channels;
        total.messages += batch.messages;
        total.threads += batch.threads;
      }
      if (total.messages > 0) this.logger.log(total, 'retention pass removed messages');
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'retention pass failed; will try again next interval');
    }
    return total;
  }

  /** One batch, in the caller's transaction. */
  private async batch(tx: Queryable): Promise<Omit<RetentionPassResult, 'batches'>> {
    const due = await this.repository.takeDue(tx, this.config.batchChannels);
    const done = { channels: due.length, messages: 0, threads: 0 };
    for (const channel of due) {
      const removed = await this.step(tx, channel);
      done.messages += removed.messages;
      done.threads += removed.threads;
    }
    return done;
  }

  private async step(tx: Queryable, channel: DueChannel): Promise<{ messages: number; threads: number }> {
    const policy: RetentionPolicy = { maxAgeDays: channel.maxAgeDays, maxMessages: channel.maxMessages };
    const versions = await this.repository.keptVersions(tx, channel.id, channel.firstSeq);
    const state: RetentionChannelState = { firstSeq: channel.firstSeq, lastSeq: channel.lastSeq, versions };
    const batchMessages = this.config.batchMessages;
    const step = nextRetentionStep(state, policy, channel.now, batchMessages);
    if (!step) {
      await this.repository.rearm(tx, channel.id, this.nextLook(state, policy, channel.now));
      return { messages: 0, threads: 0 };
    }
    const after: RetentionChannelState = { ...state, firstSeq: step.removeThroughSeq + 1 };
    const more = nextRetentionStep(after, policy, channel.now, batchMessages) !== null;
    const next = more ? { at: channel.now, seq: null } : this.nextLook(after, policy, channel.now);
    const removed = await this.repository.removeThrough(tx, channel.id, channel.firstSeq, step.removeThroughSeq, step.baseVersion, next);
    const bounds = [policy.maxAgeDays !== null ? `maxAgeDays ${policy.maxAgeDays}` : null, policy.maxMessages !== null ? `maxMessages ${policy.maxMessages}` : null].filter(Boolean);
    await this.audit.record(
      {
        actor: RETENTION_ACTOR,
        action: AuditAction.Retention,
        channel: channel.name,
        seq: step.removeThroughSeq,
        reason: `retention (${bounds.join(', ')}): removed seq ${channel.firstSeq}-${step.removeThroughSeq} (${removed.messages} messages, ${removed.threads} closed threads); base summary version ${step.baseVersion}`,
      },
      tx,
    );
    return removed;
  }

  /**
   * When nothing can go now: when the age bound next lets something go (never sooner than the
   * next interval) and the lastSeq at which the count bound will; both null: not until a summary
   * commit re-arms the channel.
   */
  private nextLook(state: RetentionChannelState, policy: RetentionPolicy, now: Date): NextLook {
    const at = nextAgeDueAt(state, policy);
    return {
      at: at === null ? null : new Date(Math.max(at.getTime(), now.getTime() + this.config.sweepMs)),
      seq: nextCountDueSeq(state, policy),
    };
  }
}

import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { MessageType } from '@qhorus/api';
import { WebhookConfig } from '../config/slices/webhook-config';
import { MessagePostedEvent } from '../message-store/message-posted.event';
import { SummaryUpdatedEvent } from '../summary/summary-updated.event';
import { WebhookKick } from './kick/webhook-kick';
import { WebhooksRepository } from './webhooks.repository';

/** Posts this close after one share its wake-up: latency against one fan-out per post. */
const WEBHOOK_WAKE_DELAY_MS = 10;

/**
 * Wakes the deliverers after a commit that may have written the outbox. The post's hot path
 * costs a boolean test while no hook is enabled anywhere (re-read every QHORUS_WEBHOOK_POLL_MS,
 * set at once by a create on this instance); otherwise a timer: the posts of the next
 * WEBHOOK_WAKE_DELAY_MS share one wake-up (one fan-out for all of them).
 */
@Injectable()
export class WebhookWake implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookWake.name);
  private anyEnabled = false;
  private timer: NodeJS.Timeout | null = null;
  private wake: NodeJS.Timeout | null = null;

  constructor(
    private readonly kick: WebhookKick,
    private readonly hooks: WebhooksRepository,
    private readonly config: WebhookConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.config.pollMs);
  }

  beforeApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.wake) clearTimeout(this.wake);
  }

  @OnEvent(MessagePostedEvent.NAME)
  onMessagePosted(event: MessagePostedEvent): void {
    if (this.anyEnabled && event.message.type !== MessageType.EVENT) this.soon();
  }

  @OnEvent(SummaryUpdatedEvent.NAME)
  onSummaryUpdated(): void {
    if (this.anyEnabled) this.soon();
  }

  /** A hook was created here: wake-ups start now, not at the next refresh. */
  hookEnabled(): void {
    this.anyEnabled = true;
  }

  notify(): void {
    this.kick.notify();
  }

  /** One wake-up for the commits of the next few milliseconds. */
  private soon(): void {
    if (this.wake) return;
    this.wake = setTimeout(() => {
      this.wake = null;
      this.kick.notify();
    }, WEBHOOK_WAKE_DELAY_MS);
  }

  private async refresh(): Promise<void> {
    try {
      this.anyEnabled = await this.hooks.anyEnabled();
    } catch (err) {
      this.logger.debug({ err: (err as Error).message }, 'could not read whether any webhook is enabled');
    }
  }
}

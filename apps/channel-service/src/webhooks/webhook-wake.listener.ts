import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { WebhookConfig } from '../config/slices/webhook-config';
import { MessagePostedEvent } from '../message-store/message-posted.event';
import { SummaryUpdatedEvent } from '../summary/summary-updated.event';
import { WebhookKick } from './kick/webhook-kick';
import { WebhooksRepository } from './webhooks.repository';

/** At most one wake-up per this many ms: the posts between two share one (latency against one fan-out per post). */
export const WEBHOOK_WAKE_DELAY_MS = 10;

/**
 * Wakes the deliverers after a commit that wrote the outbox: a post says so itself (`announced`:
 * some enabled hook may hear of it); a summary commit wakes them while any hook is enabled
 * (re-read every QHORUS_WEBHOOK_POLL_MS, set at once by a create on this instance). At most one wake-up per
 * WEBHOOK_WAKE_DELAY_MS: a post after a quiet spell wakes the deliverers at once, and the posts
 * that follow within the window share one more wake-up at its end (one fan-out for all of them),
 * so a busy channel costs about one fan-out per window and a lone post no wait.
 */
@Injectable()
export class WebhookWake implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookWake.name);
  private anyEnabled = false;
  private timer: NodeJS.Timeout | null = null;
  private wake: NodeJS.Timeout | null = null;
  /** When the last wake-up went out (performance.now()). */
  private lastWake = Number.NEGATIVE_INFINITY;

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
    if (event.announced) this.soon();
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

  /** A wake-up now when the last was a window ago, else one at the window's end for every commit until then. */
  private soon(): void {
    if (this.wake) return;
    const since = performance.now() - this.lastWake;
    if (since >= WEBHOOK_WAKE_DELAY_MS) return this.fire();
    this.wake = setTimeout(() => {
      this.wake = null;
      this.fire();
    }, WEBHOOK_WAKE_DELAY_MS - since);
  }

  private fire(): void {
    this.lastWake = performance.now();
    this.kick.notify();
  }

  private async refresh(): Promise<void> {
    try {
      this.anyEnabled = await this.hooks.anyEnabled();
    } catch (err) {
      this.logger.debug({ err: (err as Error).message }, 'could not read whether any webhook is enabled');
    }
  }
}

import { BeforeApplicationShutdown, Injectable, Logger, NotFoundException, OnApplicationBootstrap } from '@nestjs/common';
import { setMaxListeners } from 'node:events';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { TimeoutError, withTimeout } from '../common/with-timeout';
import { WebhookConfig } from '../config/slices/webhook-config';
import { MessageRow } from '../message-store/message.entity';
import { SummaryService } from '../summary/summary.service';
import { WebhookKick } from './kick/webhook-kick';
import { givesUp, retryDelayMs, RetrySchedule } from './retry-schedule';
import { ClaimedDelivery } from './webhook.entity';
import { WebhookMetrics } from './webhook-metrics';
import { Dropped, isDropped, ownerPrincipal, renderMessagePayload, WebhookPayload } from './webhook-payload';
import { ConnectionPools, sendWebhook, SendOutcome } from './webhook-sender';
import { checkTarget, WebhookTargetRefused } from './url-guard';
import { LoggedAttempt, WEBHOOK_FANOUT_BATCH, WebhooksRepository } from './webhooks.repository';
import { WebhookHostResolver } from './webhook-host-resolver';
import { annotateSpan, inSpan } from '../telemetry/spans';

/** DESIGN §13: webhook deliveries are traced. */
const WEBHOOK_DELIVERY_SPAN = 'qhorus.webhook.delivery';
const WEBHOOK_ID_ATTRIBUTE = 'qhorus.webhook.id';
const WEBHOOK_EVENT_ATTRIBUTE = 'qhorus.webhook.event_type';
const WEBHOOK_ATTEMPT_ATTRIBUTE = 'qhorus.webhook.attempt';
const WEBHOOK_STATUS_ATTRIBUTE = 'http.response.status_code';

const SUMMARY_EVENT = 'summary.updated';
const USER_AGENT = 'qhorus-webhooks';
/** HTTP 410 Gone: the receiver asks never to be called again (DESIGN §11). */
const GONE = 410;

/**
 * The workers' side of webhooks: fans outbox rows out to hooks, claims due deliveries (leased in
 * Postgres, so a killed worker's are taken over by another after QHORUS_WEBHOOK_LEASE_MS), renders
 * each payload from the tables at that moment, checks the target address, signs (Standard
 * Webhooks, the same webhook-id on every attempt), sends, and records the outcome with its log
 * line in one statement: delivered, retried with backoff, or the hook disabled (410, or failing
 * past QHORUS_WEBHOOK_GIVE_UP_MS).
 * Woken by WebhookKick after posts, and polls for retries that fall due.
 */
@Injectable()
export class WebhookDeliverer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliverer.name);
  private readonly schedule: RetrySchedule;
  private readonly inFlight = new Set<Promise<void>>();
  /** Ends the attempts still in flight when the shutdown grace is over. */
  private readonly stopping = new AbortController();
  /** Kept-alive connections to the receivers, one pool per checked address. */
  private readonly connections: ConnectionPools;
  private poll: NodeJS.Timeout | null = null;
  private pumping = false;
  private again = false;
  /** The last round filled every free slot: more may be due, so a finishing delivery drains again. */
  private backlog = false;
  private closed = false;

  constructor(
    private readonly hooks: WebhooksRepository,
    private readonly summaries: SummaryService,
    private readonly kick: WebhookKick,
    private readonly metrics: WebhookMetrics,
    private readonly config: WebhookConfig,
    private readonly dns: WebhookHostResolver,
  ) {
    // Each attempt in flight listens on the one shutdown signal, and pump() claims only free
    // slots: up to WebhookConfig.concurrency (QHORUS_WEBHOOK_CONCURRENCY) listeners are expected, not a leak.
    setMaxListeners(config.concurrency, this.stopping.signal);
    this.schedule = config.retry;
    this.connections = new ConnectionPools(config.concurrency);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.runsWorker) return;
    await this.kick.start(() => this.drain());
    this.poll = setInterval(() => this.drain(), this.config.pollMs);
    this.drain();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.poll) clearInterval(this.poll);
    await this.kick.close();
    // Deliveries in flight end within their timeout; one still running at the grace's end is
    // taken over by another worker once its lease runs out.
    const grace = new Promise((resolve) => setTimeout(resolve, this.config.shutdownTimeoutMs).unref());
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
    this.stopping.abort();
    this.connections.close();
  }

  /** Fans out and delivers until nothing is due or every slot is busy (a finishing delivery drains again). */
  drain(): void {
    if (this.closed) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void this.pump().finally(() => {
      this.pumping = false;
      if (this.again) {
        this.again = false;
        this.drain();
      }
    });
  }

  /**
   * Rounds of fan-out and claim until the outbox is empty (a batch came back short) or every slot
   * is busy. A round whose events matched no hook claims nothing unless a backlog is known: the
   * wake-up of posts no hook wants costs one statement (what else falls due — retries,
   * takeovers — the poll claims).
   */
  private async pump(): Promise<void> {
    try {
      while (!this.closed) {
        const { events, deliveries } = await this.hooks.fanOut();
        const free = this.config.concurrency - this.inFlight.size;
        const claims = free > 0 && (events === 0 || deliveries > 0 || this.backlog);
        const claimed = claims ? await this.hooks.claim(free, this.config.leaseMs) : [];
        const full = free === 0 || claimed.length === free;
        // A round that claimed nothing learnt nothing about what is due: the backlog stays as it was.
        if (claims || full) this.backlog = full;
        if (claimed.length > 0) await this.start(claimed);
        if (events < WEBHOOK_FANOUT_BATCH || full) break;
      }
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'webhook drain failed; the next poll retries');
    }
  }

  private async start(claimed: ClaimedDelivery[]): Promise<void> {
    const keys = claimed.filter((d) => d.channel_id !== null && d.seq !== null && d.type !== SUMMARY_EVENT).map((d) => ({ channelId: d.channel_id!, seq: d.seq! }));
    const messages = await this.hooks.messagesAt(keys);
    for (const d of claimed) {
      const run = this.deliver(d, messages.get(`${d.channel_id}:${d.seq}`))
        .catch((err: Error) => this.logger.warn({ webhookId: d.webhook_id, eventId: d.id, err: err.message }, 'webhook delivery not recorded; retried after its lease'))
        .finally(() => {
          this.inFlight.delete(run);
          // With more due, claim again once half the slots are free: one claim for many slots, not
          // one per delivery. Without, new events wake the deliverer and retries are polled for.
          if (this.backlog && this.inFlight.size <= this.config.concurrency / 2) this.drain();
        });
      this.inFlight.add(run);
    }
  }

  /** One attempt, as a `qhorus.webhook.delivery` span when tracing is on (no URL: it may carry a secret). */
  private deliver(d: ClaimedDelivery, message: MessageRow | undefined): Promise<void> {
    const attributes = { [WEBHOOK_ID_ATTRIBUTE]: d.webhook_id, [WEBHOOK_EVENT_ATTRIBUTE]: d.type, [WEBHOOK_ATTEMPT_ATTRIBUTE]: d.attempt };
    return inSpan(WEBHOOK_DELIVERY_SPAN, attributes, () => this.attempt(d, message));
  }

  private async attempt(d: ClaimedDelivery, message: MessageRow | undefined): Promise<void> {
    if (d.hook_disabled) return void (await this.hooks.delivered(d.id, d.attempt));
    const payload = d.owner_revoked ? { dropped: `the owner '${d.owner}' was revoked` } : await this.render(d, message);
    if (isDropped(payload)) return this.drop(d, payload);
    const outcome = await this.send(d, payload);
    annotateSpan({ [WEBHOOK_STATUS_ATTRIBUTE]: outcome.status ?? 0 });
    const logged: LoggedAttempt = { webhookId: d.webhook_id, eventId: d.id, type: d.type, attempt: d.attempt, ...outcome };
    if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) {
      this.metrics.attempts.inc({ outcome: 'delivered' });
      if (await this.hooks.logDelivered(logged, this.config.logKeep)) this.metrics.lag.observe((Date.now() - d.event_at.getTime()) / 1000);
    } else if (outcome.status === GONE) {
      this.metrics.attempts.inc({ outcome: 'gone' });
      await this.hooks.logAttempt(logged, this.config.logKeep);
      await this.disable(d, 'gone', `the receiver answered 410 Gone to event ${d.id}`);
    } else {
      this.metrics.attempts.inc({ outcome: 'failed' });
      await this.retryLater(d, logged);
    }
  }

  private async render(d: ClaimedDelivery, message: MessageRow | undefined): Promise<WebhookPayload | Dropped> {
    if (d.type !== SUMMARY_EVENT) return renderMessagePayload(d, message);
    if (d.channel === null) return { dropped: 'the channel was deleted' };
    try {
      // The summary as GET …/summary shows it to the owner, access rule included.
      return { type: d.type, timestamp: d.event_at.toISOString(), data: await this.summaries.get(d.channel, ownerPrincipal(d.owner)) };
    } catch (e) {
      if (e instanceof NotFoundException) return { dropped: `the owner may no longer read channel '${d.channel}'` };
      throw e;
    }
  }

  /**
   * Checks the address now (DNS may have moved), signs and sends on a kept-alive connection to
   * that address (a new one when it has none); a refused address is a failed attempt.
   */
  private async send(d: ClaimedDelivery, payload: WebhookPayload): Promise<SendOutcome> {
    let target;
    const timeoutMs = this.config.timeoutMs;
    try {
      // A resolver that does not answer is a failed attempt too, within the same timeout.
      target = await withTimeout(checkTarget(d.url, this.config.allowList, (host) => this.dns.resolve(host)), timeoutMs, 'resolving the host');
    } catch (e) {
      if (e instanceof WebhookTargetRefused || e instanceof TimeoutError) return { status: null, error: e.message, durationMs: 0 };
      throw e;
    }
    const body = JSON.stringify(payload);
    const now = new Date();
    const headers = {
      'user-agent': USER_AGENT,
      'webhook-id': d.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new StandardWebhook(d.secret).sign(d.id, now, body),
    };
    return sendWebhook(target, headers, body, { timeoutMs, maxResponseBytes: this.config.maxResponseBytes, signal: this.stopping.signal, agent: this.connections.agentFor(target) });
  }

  private async drop(d: ClaimedDelivery, why: Dropped): Promise<void> {
    this.metrics.attempts.inc({ outcome: 'dropped' });
    await this.hooks.logDelivered(
      { webhookId: d.webhook_id, eventId: d.id, type: d.type, attempt: d.attempt, status: null, durationMs: 0, error: `not sent: ${why.dropped}` },
      this.config.logKeep,
    );
  }

  private async retryLater(d: ClaimedDelivery, logged: LoggedAttempt): Promise<void> {
    const delay = retryDelayMs(this.schedule, d.attempt);
    const error = logged.error ?? 'failed';
    if (givesUp(this.schedule, d.created_at, new Date(), delay)) {
      await this.hooks.logAttempt(logged, this.config.logKeep);
      await this.disable(d, 'failing', `event ${d.id} failed for ${Math.round((Date.now() - d.created_at.getTime()) / 1000)} s (${d.attempt} attempts); last error: ${error}`);
    } else if (!(await this.hooks.logRetry(logged, this.config.logKeep, delay))) {
      this.logger.debug({ eventId: d.id }, 'webhook delivery was taken over by another worker');
    }
  }

  private async disable(d: ClaimedDelivery, reason: 'gone' | 'failing', text: string): Promise<void> {
    await this.hooks.disable(d.webhook_id, text);
    this.metrics.disabled.inc({ reason });
    this.logger.warn({ webhookId: d.webhook_id, owner: d.owner, reason }, 'webhook disabled');
  }
}

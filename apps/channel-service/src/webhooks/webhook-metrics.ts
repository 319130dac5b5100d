import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { QhorusMetrics } from '../metrics/qhorus-metrics';

/** From a wake-up's few milliseconds to a day of retries. */
export const WEBHOOK_LAG_BUCKETS_SECONDS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21600, 86400];

export const WEBHOOK_METRIC_NAMES = {
  attempts: 'qhorus_webhook_attempts_total',
  lag: 'qhorus_webhook_delivery_lag_seconds',
  disabled: 'qhorus_webhooks_disabled_total',
} as const;

/** The webhook metrics, in the app's own registry (served by GET /metrics with the rest). */
@Injectable()
export class WebhookMetrics {
  readonly attempts: Counter<'outcome'>;
  readonly lag: Histogram;
  readonly disabled: Counter<'reason'>;

  constructor(metrics: QhorusMetrics) {
    const registers = [metrics.registry];
    this.attempts = new Counter({
      name: WEBHOOK_METRIC_NAMES.attempts,
      help: 'Webhook delivery attempts, by outcome: delivered (2xx), failed (other answer, timeout, refused address: retried), gone (410: hook disabled), dropped (no longer readable, owner revoked, message removed).',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.lag = new Histogram({
      name: WEBHOOK_METRIC_NAMES.lag,
      help: 'From the event (commit of the message or summary) to its delivery (2xx), retries included.',
      buckets: WEBHOOK_LAG_BUCKETS_SECONDS,
      registers,
    });
    this.disabled = new Counter({
      name: WEBHOOK_METRIC_NAMES.disabled,
      help: 'Hooks disabled by the service, by reason (gone: 410; failing: an event failed for QHORUS_WEBHOOK_GIVE_UP_MS).',
      labelNames: ['reason'] as const,
      registers,
    });
  }
}

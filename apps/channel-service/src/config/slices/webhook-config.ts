import { AppConfig } from '../app-config';
import { parseWebhookAllowList, WebhookAllowList } from '../webhook-allowed-hosts';

/** webhooks/: the QHORUS_WEBHOOK_* settings, parsed. */
export class WebhookConfig {
  /** QHORUS_WEBHOOK_ALLOWED_HOSTS: private, loopback or link-local targets allowed all the same. */
  readonly allowList: WebhookAllowList;
  /** One delivery attempt, and a create's DNS check of the target. */
  readonly timeoutMs: number;
  /** Retry backoff from `minMs` to `maxMs`; an event still failing `giveUpMs` after it was due disables its hook. */
  readonly retry: { readonly minMs: number; readonly maxMs: number; readonly giveUpMs: number };
  /** A claimed delivery is another worker's after this long. */
  readonly leaseMs: number;
  readonly pollMs: number;
  /** Deliveries in flight per worker process. */
  readonly concurrency: number;
  readonly maxResponseBytes: number;
  /** Delivery attempts kept per hook. */
  readonly logKeep: number;
  readonly maxPerAgent: number;
  readonly shutdownTimeoutMs: number;
  readonly runsWorker: boolean;
  /** Redis for the wake-ups between instances; undefined: in process. */
  readonly redisUrl: string | undefined;
  readonly queuePrefix: string;

  constructor(config: AppConfig) {
    this.allowList = parseWebhookAllowList(config.QHORUS_WEBHOOK_ALLOWED_HOSTS);
    this.timeoutMs = config.QHORUS_WEBHOOK_TIMEOUT_MS;
    this.retry = { minMs: config.QHORUS_WEBHOOK_BACKOFF_MIN_MS, maxMs: config.QHORUS_WEBHOOK_BACKOFF_MAX_MS, giveUpMs: config.QHORUS_WEBHOOK_GIVE_UP_MS };
    this.leaseMs = config.QHORUS_WEBHOOK_LEASE_MS;
    this.pollMs = config.QHORUS_WEBHOOK_POLL_MS;
    this.concurrency = config.QHORUS_WEBHOOK_CONCURRENCY;
    this.maxResponseBytes = config.QHORUS_WEBHOOK_MAX_RESPONSE_BYTES;
    this.logKeep = config.QHORUS_WEBHOOK_LOG_KEEP;
    this.maxPerAgent = config.QHORUS_MAX_WEBHOOKS_PER_AGENT;
    this.shutdownTimeoutMs = config.QHORUS_SHUTDOWN_TIMEOUT_MS;
    this.runsWorker = config.runsWorker;
    this.redisUrl = config.REDIS_URL;
    this.queuePrefix = config.QHORUS_QUEUE_PREFIX;
  }
}

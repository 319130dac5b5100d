import { configSlice } from '../config-slice';
import { parseWebhookAllowList } from '../webhook-allowed-hosts';

/** webhooks/: the QHORUS_WEBHOOK_* settings, parsed. */
export class WebhookConfig extends configSlice((config) => ({
  /** QHORUS_WEBHOOK_ALLOWED_HOSTS: private, loopback or link-local targets allowed all the same. */
  allowList: parseWebhookAllowList(config.QHORUS_WEBHOOK_ALLOWED_HOSTS),
  /** One delivery attempt, and a create's DNS check of the target. */
  timeoutMs: config.QHORUS_WEBHOOK_TIMEOUT_MS,
  /** Retry backoff from `minMs` to `maxMs`; an event still failing `giveUpMs` after it was due disables its hook. */
  retry: { minMs: config.QHORUS_WEBHOOK_BACKOFF_MIN_MS, maxMs: config.QHORUS_WEBHOOK_BACKOFF_MAX_MS, giveUpMs: config.QHORUS_WEBHOOK_GIVE_UP_MS },
  /** A claimed delivery is another worker's after this long. */
  leaseMs: config.QHORUS_WEBHOOK_LEASE_MS,
  pollMs: config.QHORUS_WEBHOOK_POLL_MS,
  /** Deliveries in flight per worker process. */
  concurrency: config.QHORUS_WEBHOOK_CONCURRENCY,
  maxResponseBytes: config.QHORUS_WEBHOOK_MAX_RESPONSE_BYTES,
  /** Delivery attempts kept per hook. */
  logKeep: config.QHORUS_WEBHOOK_LOG_KEEP,
  maxPerAgent: config.QHORUS_MAX_WEBHOOKS_PER_AGENT,
  shutdownTimeoutMs: config.QHORUS_SHUTDOWN_TIMEOUT_MS,
  runsWorker: config.runsWorker,
  /** Redis for the wake-ups between instances; undefined: in process. */
  redisUrl: config.REDIS_URL,
  queuePrefix: config.QHORUS_QUEUE_PREFIX,
})) {}

/**
 * Wakes the webhook deliverers when new events are in the outbox. Only a wake-up: Postgres
 * holds every event and the schedule of every retry, and workers also poll
 * (QHORUS_WEBHOOK_POLL_MS), so a lost wake-up (Redis down) delays delivery, never loses it.
 * Two drivers, chosen like the summary queue's: BullMQ on Redis, so an API instance wakes the
 * workers of other processes, and in-process when no Redis is configured.
 */
export abstract class WebhookKick {
  /** Asks for a drain soon. Never throws, never waits. */
  abstract notify(): void;
  /** Worker roles: calls `drain` whenever a wake-up arrives. */
  abstract start(drain: () => void): Promise<void>;
  abstract close(): Promise<void>;
}

import { Logger } from '@nestjs/common';
import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import { WebhookKick } from './webhook-kick';

export const WEBHOOK_QUEUE_NAME = 'webhook-drain';
const DRAIN_JOB = 'drain';
/** One drain job at a time, the one after it kept while it runs (as the summary queue's per-channel jobs). */
const DRAIN_DEDUPLICATION = { id: DRAIN_JOB, keepLastIfActive: true };

/**
 * Wake-ups through BullMQ: an `api` instance adds a deduplicated drain job, a worker process
 * takes it and drains the outbox. An instance that is a worker itself drains at once instead (no
 * Redis round trip on the post's path; other workers still poll). At most one add is in flight
 * per process (the rest coalesce into one more).
 */
export class BullmqWebhookKick extends WebhookKick {
  private readonly logger = new Logger(BullmqWebhookKick.name);
  private readonly producerConnection: IORedis;
  private readonly queue: Queue;
  private workerConnection: IORedis | null = null;
  private worker: Worker | null = null;
  /** Set on worker roles: this process drains the outbox itself. */
  private localDrain: (() => void) | null = null;
  private adding = false;
  private again = false;

  constructor(
    private readonly redisUrl: string,
    private readonly prefix: string,
  ) {
    super();
    // As the summary queue's producer: fail fast when Redis is down (the poll delivers anyway).
    this.producerConnection = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
    this.producerConnection.on('error', (err) => this.logger.debug({ err: err.message }, 'redis webhook producer connection error'));
    this.queue = new Queue(WEBHOOK_QUEUE_NAME, { connection: this.producerConnection, prefix, skipWaitingForReady: true });
    this.queue.on('error', (err) => this.logger.debug({ err: err.message }, 'webhook queue error'));
  }

  notify(): void {
    if (this.localDrain) return this.localDrain();
    if (this.adding) {
      this.again = true;
      return;
    }
    this.adding = true;
    this.queue
      .add(DRAIN_JOB, {}, { deduplication: DRAIN_DEDUPLICATION, removeOnComplete: true, removeOnFail: true })
      .catch((err: Error) => this.logger.debug({ err: err.message }, 'could not wake the webhook workers; they poll'))
      .finally(() => {
        this.adding = false;
        if (this.again) {
          this.again = false;
          this.notify();
        }
      });
  }

  async start(drain: () => void): Promise<void> {
    this.localDrain = drain;
    this.workerConnection = new IORedis(this.redisUrl, { maxRetriesPerRequest: null });
    this.workerConnection.on('error', (err) => this.logger.debug({ err: err.message }, 'redis webhook worker connection error'));
    this.worker = new Worker(WEBHOOK_QUEUE_NAME, async () => drain(), { connection: this.workerConnection, prefix: this.prefix });
    this.worker.on('error', (err) => this.logger.debug({ err: err.message }, 'webhook worker error'));
  }

  async close(): Promise<void> {
    this.localDrain = null;
    await this.worker?.close(true);
    await this.queue.close();
    this.workerConnection?.disconnect();
    this.producerConnection.disconnect();
  }
}

import { Logger } from '@nestjs/common';
import IORedis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { withTimeout } from '../../common/with-timeout';
import { CREDENTIAL_PUBLISH_TIMEOUT_MS, CredentialEvents } from './credential-events';

/** Under the deployment's key prefix, so deployments sharing a Redis stay apart. */
export const credentialsTopic = (prefix: string) => `${prefix}:credentials`;
const ORIGIN_SEPARATOR = '\n';

/** Credential changes over Redis pub/sub (REDIS_URL set). Messages are `<origin>\n<agent name>`. */
export class RedisCredentialEvents extends CredentialEvents {
  private readonly logger = new Logger(RedisCredentialEvents.name);
  private readonly origin = randomUUID();
  private readonly topic: string;
  private readonly publisher: IORedis;
  private readonly subscriber: IORedis;

  constructor(redisUrl: string, prefix: string) {
    super();
    this.topic = credentialsTopic(prefix);
    this.publisher = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
    this.subscriber = new IORedis(redisUrl);
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (err) => this.logger.debug({ err: err.message }, 'redis credential events connection error'));
    }
    let readyBefore = false;
    // ioredis resubscribes after a reconnect; what was published in the gap is lost, so forget everything.
    this.subscriber.on('ready', () => {
      if (readyBefore) this.deliver(null);
      readyBefore = true;
    });
    this.subscriber.on('message', (topic: string, payload: string) => {
      if (topic !== this.topic) return;
      const at = payload.indexOf(ORIGIN_SEPARATOR);
      if (at < 0 || payload.slice(0, at) === this.origin) return;
      this.deliver(payload.slice(at + 1));
    });
    this.subscriber.subscribe(this.topic).catch((err) => this.logger.warn({ err: err.message }, 'could not subscribe to credential changes'));
  }

  protected async sendToOthers(agentName: string): Promise<void> {
    await withTimeout(this.publisher.publish(this.topic, this.origin + ORIGIN_SEPARATOR + agentName), CREDENTIAL_PUBLISH_TIMEOUT_MS, 'publishing a credential change');
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}

import { Logger } from '@nestjs/common';
import IORedis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { withTimeout } from '../../common/with-timeout';
import { CREDENTIAL_PUBLISH_TIMEOUT_MS, decodeCredentialMessage, encodeCredentialMessage, OwnEchoes, CredentialEvents } from './credential-events';

/** Under the deployment's key prefix, so deployments sharing a Redis stay apart. */
export const credentialsTopic = (prefix: string) => `${prefix}:credentials`;

/** Credential changes over Redis pub/sub (REDIS_URL set). */
export class RedisCredentialEvents extends CredentialEvents {
  private readonly logger = new Logger(RedisCredentialEvents.name);
  private readonly origin = randomUUID();
  private readonly echoes = new OwnEchoes();
  private readonly topic: string;
  private readonly publisher: IORedis;
  private readonly subscriber: IORedis;

  constructor(redisUrl: string, prefix: string) {
    super();
    this.topic = credentialsTopic(prefix);
    this.publisher = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
    // A subscriber waits for Redis however long it is away (as a worker does): with the default
    // retry limit a SUBSCRIBE sent while Redis was down at start-up failed for good, and revokes
    // never reached this instance.
    this.subscriber = new IORedis(redisUrl, { maxRetriesPerRequest: null });
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
      this.receive(payload);
    });
    // Whatever was cached before the subscription holds (Redis down at start-up) may be stale.
    this.subscriber.subscribe(this.topic).then(
      () => this.deliver(null),
      (err) => this.logger.warn({ err: err.message }, 'could not subscribe to credential changes'),
    );
  }

  protected async sendToOthers(agentName: string): Promise<void> {
    const { id, heard } = this.echoes.expect();
    try {
      await withTimeout(
        this.publisher.publish(this.topic, encodeCredentialMessage(this.origin, id, agentName)).then(() => heard),
        CREDENTIAL_PUBLISH_TIMEOUT_MS,
        'publishing a credential change',
      );
    } finally {
      this.echoes.forget(id);
    }
  }

  private receive(payload: string): void {
    const message = decodeCredentialMessage(payload);
    if (!message) return;
    if (message.origin === this.origin) this.echoes.heard(message.id);
    else this.deliver(message.agentName);
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}

import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { BusTopic, InstanceBus } from '../bus/instance-bus';
import { withTimeout } from '../common/with-timeout';

/**
 * An agent's credentials changed (revoked, rotated): every instance must forget what it cached
 * about that agent before it answers its next request. `null` means "anything may have changed"
 * (the instance was cut off from the others for a while and may have missed messages): drop all.
 */
export type CredentialChangeHandler = (agentName: string | null) => void;

/** How long a revoke or rotate waits for the others to be told before answering anyway. */
export const CREDENTIAL_PUBLISH_TIMEOUT_MS = 2_000;
/** How long before subscribing again when the bus refused the subscription. */
const SUBSCRIBE_RETRY_MS = 1_000;

/** The bus topic of credential changes. */
export const CREDENTIALS: BusTopic = { name: 'credentials', postgresChannel: 'qhorus_credentials' };

/**
 * Cross-instance invalidation of the token caches (not a TTL), over the instance bus. `publish`
 * tells this instance at once (synchronously) and resolves once the others have it in hand (see
 * OwnEchoes). Whenever the bus may have lost a message (it resyncs), every cached credential is
 * dropped: a revoke may have been missed.
 */
export class CredentialEvents {
  private readonly logger = new Logger(CredentialEvents.name);
  private readonly handlers: CredentialChangeHandler[] = [];
  private readonly origin = randomUUID();
  private readonly echoes = new OwnEchoes();
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly bus: InstanceBus) {
    bus.onResync(() => this.deliver(null));
    this.listen();
  }

  subscribe(handler: CredentialChangeHandler): void {
    this.handlers.push(handler);
  }

  async publish(agentName: string): Promise<void> {
    this.deliver(agentName);
    const { id, heard } = this.echoes.expect();
    try {
      await withTimeout(
        this.bus.publish(CREDENTIALS, encodeCredentialMessage(this.origin, id, agentName)).then(() => heard),
        CREDENTIAL_PUBLISH_TIMEOUT_MS,
        'publishing a credential change',
      );
    } finally {
      this.echoes.forget(id);
    }
  }

  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  /**
   * Whatever another instance's bus message could have changed before the subscription held (the
   * bus down at start-up) may be stale: dropped once listening. In one process nothing was missed.
   */
  private listen(): void {
    this.bus.subscribe(CREDENTIALS, (payload) => this.receive(payload)).then(
      () => {
        if (this.bus.reachesOtherInstances) this.deliver(null);
      },
      (err: Error) => {
        if (this.closed) return;
        this.logger.warn({ err: err.message }, 'could not subscribe to credential changes; retrying');
        this.retryTimer = setTimeout(() => this.listen(), SUBSCRIBE_RETRY_MS);
        this.retryTimer.unref();
      },
    );
  }

  private receive(payload: string): void {
    const message = decodeCredentialMessage(payload);
    if (!message) return;
    if (message.origin === this.origin) this.echoes.heard(message.id);
    else this.deliver(message.agentName);
  }

  private deliver(agentName: string | null): void {
    for (const handler of this.handlers) handler(agentName);
  }
}

/**
 * The messages this instance sent and is waiting to hear back. Hearing its own message means the
 * bus has delivered it to every listener at the same moment, so a revoke answers only once the
 * other instances have it in hand, not merely once it was sent (their very next request is then
 * refused, even when it arrives right after the answer).
 */
export class OwnEchoes {
  private next = 0;
  private readonly waiting = new Map<string, () => void>();

  /** A fresh message id and the promise of hearing it back. */
  expect(): { id: string; heard: Promise<void> } {
    const id = String(++this.next);
    const heard = new Promise<void>((resolve) => this.waiting.set(id, resolve));
    return { id, heard };
  }

  heard(id: string): void {
    this.waiting.get(id)?.();
    this.waiting.delete(id);
  }

  forget(id: string): void {
    this.waiting.delete(id);
  }
}

/** Messages on the bus are `<origin>\n<id>\n<agent name>`. */
const FIELD_SEPARATOR = '\n';

export const encodeCredentialMessage = (origin: string, id: string, agentName: string): string => [origin, id, agentName].join(FIELD_SEPARATOR);

/** The parts of a bus message, or null for anything malformed. */
export function decodeCredentialMessage(payload: string): { origin: string; id: string; agentName: string } | null {
  const first = payload.indexOf(FIELD_SEPARATOR);
  const second = first < 0 ? -1 : payload.indexOf(FIELD_SEPARATOR, first + 1);
  if (second < 0) return null;
  return { origin: payload.slice(0, first), id: payload.slice(first + 1, second), agentName: payload.slice(second + 1) };
}

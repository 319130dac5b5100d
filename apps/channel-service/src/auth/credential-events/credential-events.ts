/**
 * An agent's credentials changed (revoked, rotated): every instance must forget what it cached
 * about that agent before it answers its next request. `null` means "anything may have changed"
 * (the instance was cut off from the others for a while and may have missed messages): drop all.
 */
export type CredentialChangeHandler = (agentName: string | null) => void;

/** How long a revoke or rotate waits for the others to be told before answering anyway. */
export const CREDENTIAL_PUBLISH_TIMEOUT_MS = 2_000;
/** How long a lost LISTEN connection waits before it reconnects. */
export const CREDENTIAL_RECONNECT_MS = 1_000;

/**
 * Cross-instance invalidation of the token caches (not a TTL): Redis pub/sub when REDIS_URL is
 * set, Postgres LISTEN/NOTIFY when only DATABASE_URL is, in-process only for the embedded
 * single-instance default. `publish` tells this instance at once (synchronously) and resolves
 * once the others have been sent the message.
 */
export abstract class CredentialEvents {
  private readonly handlers: CredentialChangeHandler[] = [];

  subscribe(handler: CredentialChangeHandler): void {
    this.handlers.push(handler);
  }

  async publish(agentName: string): Promise<void> {
    this.deliver(agentName);
    await this.sendToOthers(agentName);
  }

  abstract close(): Promise<void>;

  protected abstract sendToOthers(agentName: string): Promise<void>;

  protected deliver(agentName: string | null): void {
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

/** One process serves every request (the embedded default): nobody else to tell. */
export class LocalCredentialEvents extends CredentialEvents {
  protected async sendToOthers(): Promise<void> {}
  async close(): Promise<void> {}
}

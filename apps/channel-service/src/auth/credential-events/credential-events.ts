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

/** One process serves every request (the embedded default): nobody else to tell. */
export class LocalCredentialEvents extends CredentialEvents {
  protected async sendToOthers(): Promise<void> {}
  async close(): Promise<void> {}
}

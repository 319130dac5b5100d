import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { randomUUID } from 'node:crypto';
import { withTimeout } from '../../common/with-timeout';
import { Database } from '../../database/database';
import { CREDENTIAL_PUBLISH_TIMEOUT_MS, CREDENTIAL_RECONNECT_MS, CredentialEvents } from './credential-events';

/** The NOTIFY channel (one database is one deployment). */
export const CREDENTIALS_NOTIFY_CHANNEL = 'qhorus_credentials';
const ORIGIN_SEPARATOR = '\n';
const LISTEN_SQL = `LISTEN ${CREDENTIALS_NOTIFY_CHANNEL}`;
const NOTIFY_SQL = `SELECT pg_notify($1, $2)`;

/**
 * Credential changes over Postgres LISTEN/NOTIFY (DATABASE_URL set, no Redis). One dedicated
 * connection listens; NOTIFY goes through the pool. A notification is delivered on commit, and
 * the revoke/rotate statement has committed before NOTIFY is sent.
 */
export class PostgresCredentialEvents extends CredentialEvents {
  private readonly logger = new Logger(PostgresCredentialEvents.name);
  private readonly origin = randomUUID();
  private client: Client | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(
    private readonly databaseUrl: string,
    private readonly db: Database,
  ) {
    super();
  }

  static async start(databaseUrl: string, db: Database): Promise<PostgresCredentialEvents> {
    const events = new PostgresCredentialEvents(databaseUrl, db);
    await events.connect(false);
    return events;
  }

  protected async sendToOthers(agentName: string): Promise<void> {
    await withTimeout(this.db.query(NOTIFY_SQL, [CREDENTIALS_NOTIFY_CHANNEL, this.origin + ORIGIN_SEPARATOR + agentName]), CREDENTIAL_PUBLISH_TIMEOUT_MS, 'notifying a credential change');
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }

  private async connect(afterGap: boolean): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('notification', (msg) => {
      const payload = msg.payload ?? '';
      const at = payload.indexOf(ORIGIN_SEPARATOR);
      if (msg.channel !== CREDENTIALS_NOTIFY_CHANNEL || at < 0 || payload.slice(0, at) === this.origin) return;
      this.deliver(payload.slice(at + 1));
    });
    client.on('error', (err) => {
      this.logger.warn({ err: err.message }, 'credential LISTEN connection lost; reconnecting');
      this.retry(client);
    });
    client.on('end', () => this.retry(client));
    try {
      await client.connect();
      await client.query(LISTEN_SQL);
      this.client = client;
      if (afterGap) this.deliver(null); // notifications sent while we were away are lost
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'could not LISTEN for credential changes; retrying');
      await client.end().catch(() => undefined);
      this.retry(client);
    }
  }

  private retry(client: Client): void {
    if (this.closed || this.reconnectTimer || (this.client !== null && this.client !== client)) return;
    this.client = null;
    // Until we listen again, nothing cached can be trusted to be current.
    this.deliver(null);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect(true);
    }, CREDENTIAL_RECONNECT_MS);
    this.reconnectTimer.unref();
  }
}

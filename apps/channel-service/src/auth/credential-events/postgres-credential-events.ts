import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { randomUUID } from 'node:crypto';
import { withTimeout } from '../../common/with-timeout';
import { Database } from '../../database/database';
import { CREDENTIAL_PUBLISH_TIMEOUT_MS, decodeCredentialMessage, encodeCredentialMessage, OwnEchoes, CREDENTIAL_RECONNECT_MS, CredentialEvents } from './credential-events';

/** The NOTIFY channel (one database is one deployment). */
export const CREDENTIALS_NOTIFY_CHANNEL = 'qhorus_credentials';
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
  private readonly echoes = new OwnEchoes();
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
    const { id, heard } = this.echoes.expect();
    try {
      await withTimeout(
        this.db.query(NOTIFY_SQL, [CREDENTIALS_NOTIFY_CHANNEL, encodeCredentialMessage(this.origin, id, agentName)]).then(() => heard),
        CREDENTIAL_PUBLISH_TIMEOUT_MS,
        'notifying a credential change',
      );
    } finally {
      this.echoes.forget(id);
    }
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
      const message = msg.channel === CREDENTIALS_NOTIFY_CHANNEL ? decodeCredentialMessage(msg.payload ?? '') : null;
      if (!message) return;
      if (message.origin === this.origin) this.echoes.heard(message.id);
      else this.deliver(message.agentName);
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

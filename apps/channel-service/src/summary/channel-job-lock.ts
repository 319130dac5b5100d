import { Logger } from '@nestjs/common';
import { DedicatedConnection } from '../database/dedicated-connection';

/** Namespaces the advisory-lock keys of summary jobs (hashed with the job key, summaryJobKey, into one bigint). */
export const CHANNEL_JOB_LOCK_NAMESPACE = 'qhorus:summary-job:';

const TRY_LOCK_SQL = `SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked`;
const UNLOCK_SQL = `SELECT pg_advisory_unlock(hashtextextended($1, 0)) AS unlocked`;

/**
 * At most one summary job per channel at a time across every process on a database. The queue
 * already promises this within a process (in-process driver) or a Redis (BullMQ deduplication);
 * this lock keeps it when instances share Postgres without Redis, and when BullMQ hands a job
 * that it believes stalled to a second worker while the first is still running it.
 */
export abstract class ChannelJobLock {
  /**
   * Runs `work` holding the job's lock (`jobKey`: a channel id, or a thread's summaryJobKey). When another process holds it, returns `busy` without
   * running: that job re-checks the backlog when it ends, and the sweep re-derives anything left.
   */
  abstract whileHeld<T>(jobKey: string, work: () => Promise<T>): Promise<{ busy: true } | { busy: false; value: T }>;
  abstract close(): Promise<void>;
}

/** The embedded database: one process owns the data dir, so the queue's own guarantee is the whole story. */
export class ProcessLocalJobLock extends ChannelJobLock {
  async whileHeld<T>(_jobKey: string, work: () => Promise<T>): Promise<{ busy: false; value: T }> {
    return { busy: false, value: await work() };
  }
  async close(): Promise<void> {}
}

/**
 * Session advisory locks on one dedicated connection per process (a transaction-scoped lock would
 * hold a pool connection for the whole job). If this process dies, Postgres drops its session and
 * the locks with it, so a crashed worker never blocks a channel.
 */
export class PostgresChannelJobLock extends ChannelJobLock {
  private readonly logger = new Logger(PostgresChannelJobLock.name);
  private readonly connection: DedicatedConnection;

  constructor(databaseUrl: string, queryTimeoutMs: number) {
    super();
    this.connection = new DedicatedConnection(databaseUrl, queryTimeoutMs, (err) =>
      // Locks held on the lost session are gone; the summary's version check still refuses a second commit of a range.
      this.logger.warn({ err: err.message }, 'summary job lock connection lost; its locks were released'),
    );
  }

  async whileHeld<T>(jobKey: string, work: () => Promise<T>): Promise<{ busy: true } | { busy: false; value: T }> {
    const key = CHANNEL_JOB_LOCK_NAMESPACE + jobKey;
    const { rows, session } = (await this.connection.query<{ locked: boolean }>(TRY_LOCK_SQL, [key]))!;
    if (!rows[0].locked) {
      this.logger.debug({ jobKey }, 'summary job already running in another process; leaving it to that one');
      return { busy: true };
    }
    try {
      return { busy: false, value: await work() };
    } finally {
      // Unlock on the session that took the lock; if that session is gone, so is the lock.
      await this.connection.query(UNLOCK_SQL, [key], session).catch((err: Error) => this.logger.warn({ jobKey, err: err.message }, 'could not release a summary job lock'));
    }
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

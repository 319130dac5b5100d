import { Injectable } from '@nestjs/common';
import { Database, Queryable } from '../database/database';

/** What one lifecycle operation records (DESIGN §10): who, what, which channel, when (now), why. Never the removed content. */
export interface AuditEntry {
  actor: string;
  action: AuditAction;
  channel: string;
  seq?: number;
  reason?: string;
}

/** The operations the audit log records. */
export const AuditAction = {
  Redact: 'message.redact',
  DeleteChannel: 'channel.delete',
  RebuildSummary: 'summary.rebuild',
  Archive: 'channel.archive',
  Unarchive: 'channel.unarchive',
  Retention: 'channel.retention',
} as const;
export type AuditAction = (typeof AuditAction)[keyof typeof AuditAction];

export interface AuditRecord {
  id: number;
  at: Date;
  actor: string;
  action: string;
  channel: string;
  seq?: number;
  reason?: string;
}

interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  action: string;
  channel: string;
  seq: string | null;
  reason: string | null;
}

const INSERT_SQL = `INSERT INTO audit_log (actor, action, channel, seq, reason) VALUES ($1, $2, $3, $4, $5)`;

/** Keyset page on the primary key, oldest first. */
const PAGE_SQL = `SELECT id, at, actor, action, channel, seq, reason FROM audit_log WHERE id > $1 ORDER BY id LIMIT $2`;

/** The append-only audit log (a trigger refuses UPDATE and DELETE on the table). */
@Injectable()
export class AuditLog {
  constructor(private readonly db: Database) {}

  /** Appends one entry; pass the operation's transaction so the entry commits (or not) with it. */
  async record(entry: AuditEntry, tx: Queryable = this.db): Promise<void> {
    await tx.query(INSERT_SQL, [entry.actor, entry.action, entry.channel, entry.seq ?? null, entry.reason ?? null]);
  }

  /** Up to `limit` entries with id above `after`, oldest first. */
  async page(after: number, limit: number): Promise<AuditRecord[]> {
    const rows = await this.db.query<AuditRow>(PAGE_SQL, [after, limit]);
    return rows.map(toRecord);
  }
}

function toRecord(r: AuditRow): AuditRecord {
  return {
    id: Number(r.id),
    at: r.at,
    actor: r.actor,
    action: r.action,
    channel: r.channel,
    ...(r.seq === null ? {} : { seq: Number(r.seq) }),
    ...(r.reason === null ? {} : { reason: r.reason }),
  };
}

import { Injectable } from '@nestjs/common';
import { Database, Queryable } from '../database/database';
import { readableSql, Viewer } from './channel-access';
import { Channel, CHANNEL_COLUMNS, ChannelRow, toChannel } from './channel.entity';
import { qualifiedColumns } from '../database/column-list';
import { summaryDueFlagSql } from './summary-backlog';

export type NewChannel = Omit<Channel, 'id' | 'lastSeq' | 'tokenTotal' | 'contentEpoch' | 'createdAt' | 'firstSeq' | 'archivedAt'>;

export type ChannelChanges = Partial<Pick<Channel, 'description' | 'summaryThreshold' | 'summaryThresholdTokens' | 'updateAfterSeconds' | 'summariser' | 'members'>> & {
  /** Both retention bounds are set together (the service merges a partial `retention`). */
  retentionMaxAgeDays?: number | null;
  retentionMaxMessages?: number | null;
};

const CHANGE_COLUMNS: Record<keyof ChannelChanges, string> = {
  description: 'description',
  summaryThreshold: 'summary_threshold',
  summaryThresholdTokens: 'summary_threshold_tokens',
  updateAfterSeconds: 'update_after_seconds',
  summariser: 'summariser',
  members: 'members',
  retentionMaxAgeDays: 'retention_max_age_days',
  retentionMaxMessages: 'retention_max_messages',
};

/**
 * Creates the channel and its empty summary slot, unless the creator already created `$9`
 * channels ($9 null: no quota, the admin). One statement: never a channel without its slot, and
 * the creator's count moves with it. The count is an UPDATE of the creator's row: concurrent
 * creates wait on that row lock and re-check `channels_created < $9` on the version committed
 * before them, so none passes the quota; a failed insert (a taken name) rolls the count back.
 */
const INSERT_SQL = `
  WITH quota AS (
    UPDATE agents SET channels_created = channels_created + 1
    WHERE $9::integer IS NOT NULL AND name = $7 AND channels_created < $9::integer
    RETURNING 1
  ), c AS (
    INSERT INTO channels (name, description, summary_threshold, update_after_seconds, summariser, members, created_by, summary_threshold_tokens,
                          retention_max_age_days, retention_max_messages)
    SELECT $1, $2, $3::integer, $4::integer, $5, $6::text[], $7, $8::integer, $10::integer, $11::integer
    WHERE $9::integer IS NULL OR EXISTS (SELECT 1 FROM quota)
    RETURNING ${CHANNEL_COLUMNS}
  ), s AS (INSERT INTO channel_summaries (channel_id) SELECT id FROM c)
  SELECT * FROM c`;

const FIND_BY_NAME_SQL = `SELECT ${CHANNEL_COLUMNS} FROM channels WHERE name = $1`;

const FIND_BY_ID_SQL = `SELECT ${CHANNEL_COLUMNS} FROM channels WHERE id = $1`;

/**
 * Archives ($2 true) or unarchives the channel; no row when it already was in that state. An
 * archived channel leaves the summary sweep's due index; unarchived, its backlog counts again.
 */
const SET_ARCHIVED_SQL = `
  UPDATE channels SET archived_at = CASE WHEN $2 THEN now() END,
    summary_due = NOT $2 AND ${summaryDueFlagSql()}
  WHERE id = $1 AND (archived_at IS NOT NULL) <> $2
  RETURNING ${CHANNEL_COLUMNS}`;

const LIST_VISIBLE_SQL = `
  SELECT ${CHANNEL_COLUMNS} FROM channels
  WHERE ${readableSql('members', { name: '$1', admin: '$2' })}
  ORDER BY name`;

const PREFIXED_COLUMNS = qualifiedColumns('c', CHANNEL_COLUMNS);
/** The reader's cursor next to each channel (read_cursors' key is (channel_id, agent)). */
const WITH_CURSOR = `SELECT ${PREFIXED_COLUMNS}, COALESCE(r.through_seq, 0) AS read_through_seq
  FROM channels c LEFT JOIN read_cursors r ON r.channel_id = c.id AND r.agent = $1`;

// Archived channels only when asked for ($3).
const LIST_VISIBLE_WITH_CURSORS_SQL = `${WITH_CURSOR}
  WHERE ${readableSql('c.members', { name: '$1', admin: '$2' })} AND ($3 OR c.archived_at IS NULL)
  ORDER BY c.name`;

const FIND_BY_NAME_WITH_CURSOR_SQL = `${WITH_CURSOR} WHERE c.name = $2`;

type ChannelWithCursorRow = ChannelRow & { read_through_seq: string };
const withCursor = (r: ChannelWithCursorRow): ChannelForReader => ({ channel: toChannel(r), readThroughSeq: Number(r.read_through_seq) });

/** A channel and how far the reading agent has read it (0: nothing marked read). */
export interface ChannelForReader {
  channel: Channel;
  readThroughSeq: number;
}

@Injectable()
export class ChannelsRepository {
  constructor(private readonly db: Database) {}

  /** The new channel (with its slot), or null when its creator is at `quota` channels (null: no quota). */
  async insert(c: NewChannel, quota: number | null): Promise<Channel | null> {
    const rows: ChannelRow[] = await this.db.query(
      INSERT_SQL,
      [
        c.name,
        c.description,
        c.summaryThreshold,
        c.updateAfterSeconds,
        c.summariser,
        c.members,
        c.createdBy,
        c.summaryThresholdTokens,
        quota,
        c.retention.maxAgeDays,
        c.retention.maxMessages,
      ],
    );
    return rows[0] ? toChannel(rows[0]) : null;
  }

  async findByName(name: string): Promise<Channel | null> {
    const rows: ChannelRow[] = await this.db.query(FIND_BY_NAME_SQL, [name]);
    return rows[0] ? toChannel(rows[0]) : null;
  }

  async findById(id: string): Promise<Channel | null> {
    const rows: ChannelRow[] = await this.db.query(FIND_BY_ID_SQL, [id]);
    return rows[0] ? toChannel(rows[0]) : null;
  }

  /** Channels the caller may see: public ones, and private ones listing them (all for the admin). */
  async listVisible(viewer: Viewer): Promise<Channel[]> {
    const rows: ChannelRow[] = await this.db.query(LIST_VISIBLE_SQL, [viewer.name, viewer.admin]);
    return rows.map(toChannel);
  }

  /** As `listVisible`, each with the viewer's read cursor; archived channels only with `includeArchived`. */
  async listVisibleWithCursors(viewer: Viewer, includeArchived = false): Promise<ChannelForReader[]> {
    const rows: ChannelWithCursorRow[] = await this.db.query(LIST_VISIBLE_WITH_CURSORS_SQL, [viewer.name, viewer.admin, includeArchived]);
    return rows.map(withCursor);
  }

  async findByNameWithCursor(name: string, viewer: string): Promise<ChannelForReader | null> {
    const rows: ChannelWithCursorRow[] = await this.db.query(FIND_BY_NAME_WITH_CURSOR_SQL, [viewer, name]);
    return rows[0] ? withCursor(rows[0]) : null;
  }

  /** The channel after archiving (or unarchiving) it; null when it already was (nothing written). */
  async setArchived(id: string, archived: boolean, tx: Queryable = this.db): Promise<Channel | null> {
    const rows: ChannelRow[] = await tx.query(SET_ARCHIVED_SQL, [id, archived]);
    return rows[0] ? toChannel(rows[0]) : null;
  }

  async update(id: string, changes: ChannelChanges): Promise<Channel | null> {
    // Columns in one fixed order, so each set of changed columns is one statement text (prepared once).
    const keys = (Object.keys(CHANGE_COLUMNS) as (keyof ChannelChanges)[]).filter((k) => k in changes);
    if (keys.length === 0) return this.findById(id);
    const sets = keys.map((k, i) => `${CHANGE_COLUMNS[k]} = $${i + 2}`);
    // A new threshold may make the channel due (or not) at once: keep the sweep's flag in step.
    const threshold = keys.indexOf('summaryThreshold');
    if (threshold >= 0) sets.push(`summary_due = ${summaryDueFlagSql('last_seq', `$${threshold + 2}::int`)}`);
    // New retention bounds: the retention pass looks at the channel at its next run (none: never).
    const maxAge = keys.indexOf('retentionMaxAgeDays');
    if (maxAge >= 0) {
      const maxMessages = keys.indexOf('retentionMaxMessages');
      sets.push(`retention_due_at = CASE WHEN $${maxAge + 2}::int IS NULL AND $${maxMessages + 2}::int IS NULL THEN NULL ELSE now() END`);
    }
    const rows: ChannelRow[] = await this.db.query(
      `UPDATE channels SET ${sets.join(', ')} WHERE id = $1 RETURNING ${CHANNEL_COLUMNS}`,
      [id, ...keys.map((k) => changes[k])],
    );
    return rows[0] ? toChannel(rows[0]) : null;
  }
}

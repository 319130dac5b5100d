import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

// Monotonic: a lower throughSeq keeps the stored one. The bound (≤ the channel's lastSeq) is
// checked in the same statement, so a cursor can never pass the channel's last message.
const ADVANCE_SQL = `
  WITH c AS (SELECT id, last_seq FROM channels WHERE id = $1),
  up AS (
    INSERT INTO read_cursors (channel_id, agent, through_seq)
    SELECT c.id, $2, $3 FROM c WHERE $3 <= c.last_seq
    ON CONFLICT (channel_id, agent) DO UPDATE
      SET through_seq = GREATEST(read_cursors.through_seq, EXCLUDED.through_seq), updated_at = now()
    RETURNING through_seq
  )
  SELECT (SELECT through_seq FROM up) AS through_seq, c.last_seq FROM c`;

const FIND_SQL = `SELECT through_seq FROM read_cursors WHERE channel_id = $1 AND agent = $2`;

export interface CursorAdvance {
  /** The cursor after the call; null when `throughSeq` was past the channel's lastSeq (nothing written). */
  readThroughSeq: number | null;
  lastSeq: number;
}

/** Each agent's read position per channel (`read_cursors`, keyed by channel and agent). */
@Injectable()
export class ReadCursorsRepository {
  constructor(private readonly db: Database) {}

  async advance(channelId: string, agent: string, throughSeq: number): Promise<CursorAdvance> {
    const rows: { through_seq: string | null; last_seq: string }[] = await this.db.query(ADVANCE_SQL, [channelId, agent, throughSeq]);
    const r = rows[0];
    return { readThroughSeq: r?.through_seq == null ? null : Number(r.through_seq), lastSeq: Number(r?.last_seq ?? 0) };
  }

  /** 0 when the agent has not marked anything read. */
  async find(channelId: string, agent: string): Promise<number> {
    const rows: { through_seq: string }[] = await this.db.query(FIND_SQL, [channelId, agent]);
    return rows[0] ? Number(rows[0].through_seq) : 0;
  }
}

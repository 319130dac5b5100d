import { Injectable } from '@nestjs/common';
import { Message } from '@qhorus/api';
import { Database } from '../database/database';
import { MESSAGE_COLUMNS, MessageRow, toMessage } from '../messages/message.entity';

const TAIL_SQL = `
  SELECT ${MESSAGE_COLUMNS} FROM messages
  WHERE channel_id = $1 AND seq > $2 AND type <> 'EVENT'
  ORDER BY seq DESC LIMIT $3`;

const PAGE_SQL = `
  SELECT ${MESSAGE_COLUMNS} FROM messages
  WHERE channel_id = $1 AND seq > $2 AND seq <= $3 AND type <> 'EVENT'
  ORDER BY seq LIMIT $4`;

/** The reads of the projection: agents' messages only (EVENT telemetry is never projected). */
@Injectable()
export class ProjectionRepository {
  constructor(private readonly db: Database) {}

  /**
   * The newest `limit` non-EVENT messages with seq > afterSeq, ascending, and whether older
   * ones after afterSeq were left out (one row more than asked tells).
   */
  async tail(channelId: string, channelName: string, afterSeq: number, limit: number): Promise<{ messages: Message[]; complete: boolean }> {
    const rows: MessageRow[] = await this.db.query(
      TAIL_SQL,
      [channelId, afterSeq, limit + 1],
    );
    const complete = rows.length <= limit;
    return { messages: rows.slice(0, limit).reverse().map((r) => toMessage(r, channelName)), complete };
  }

  /** Non-EVENT messages with afterSeq < seq ≤ throughSeq, ascending, at most `limit`. */
  async page(channelId: string, channelName: string, afterSeq: number, throughSeq: number, limit: number): Promise<Message[]> {
    const rows: MessageRow[] = await this.db.query(
      PAGE_SQL,
      [channelId, afterSeq, throughSeq, limit],
    );
    return rows.map((r) => toMessage(r, channelName));
  }
}

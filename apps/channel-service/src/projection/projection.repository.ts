import { Injectable } from '@nestjs/common';
import { Message } from '@qhorus/api';
import { Database } from '../database/database';
import { MESSAGE_COLUMNS, MessageRow, toMessage } from '../message-store/message.entity';

const TAIL_SQL = `
  SELECT ${MESSAGE_COLUMNS}, tokens_through FROM messages
  WHERE channel_id = $1 AND seq > $2 AND type <> 'EVENT'
  ORDER BY seq DESC LIMIT $3`;

export interface ProjectionTail {
  messages: Message[];
  complete: boolean;
  /** Estimated tokens of the channel's history through the newest message read (stored at insert). */
  tokensThrough: number | null;
}

/** The reads of the projection: agents' messages only (EVENT telemetry is never projected). */
@Injectable()
export class ProjectionRepository {
  constructor(private readonly db: Database) {}

  /**
   * The newest `limit` non-EVENT messages with seq > afterSeq, ascending, whether older ones
   * after afterSeq were left out (one row more than asked tells), and the channel's stored
   * running token total through the newest of them (null when there is none).
   */
  async tail(channelId: string, channelName: string, afterSeq: number, limit: number): Promise<ProjectionTail> {
    const rows: (MessageRow & { tokens_through: string })[] = await this.db.query(
      TAIL_SQL,
      [channelId, afterSeq, limit + 1],
    );
    const complete = rows.length <= limit;
    const tokensThrough = rows.length > 0 ? Number(rows[0].tokens_through) : null;
    return { messages: rows.slice(0, limit).reverse().map((r) => toMessage(r, channelName)), complete, tokensThrough };
  }

}

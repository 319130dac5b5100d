import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { MESSAGE_COLUMNS, MessageRow } from '../message-store/message.entity';

/** One keyset page of a channel's messages, EVENTs and tombstones included: a range of the (channel_id, seq) key. */
const PAGE_SQL = `
  SELECT ${MESSAGE_COLUMNS} FROM messages
  WHERE channel_id = $1 AND seq > $2 AND seq <= $3
  ORDER BY seq LIMIT $4`;

@Injectable()
export class ExportRepository {
  constructor(private readonly db: Database) {}

  /** Messages with afterSeq < seq ≤ throughSeq, in seq order, at most `limit`. */
  page(channelId: string, afterSeq: number, throughSeq: number, limit: number): Promise<MessageRow[]> {
    return this.db.query<MessageRow>(PAGE_SQL, [channelId, afterSeq, throughSeq, limit]);
  }
}

import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { MESSAGE_COLUMNS, MessageRow } from './message.entity';

/** Largest bigint: "no upper bound". */
export const MAX_SEQ = '9223372036854775807';

// Both bounds are index conditions, also in Postgres' generic plan for this prepared statement
// (`$3 IS NULL OR seq <= $3` is not: the scan then runs to the channel's last message).
const RANGE_SQL = `
  SELECT ${MESSAGE_COLUMNS} FROM messages
  WHERE channel_id = $1 AND seq > $2 AND seq <= COALESCE($3::bigint, ${MAX_SEQ}) AND ($5 OR type <> 'EVENT')
  ORDER BY seq LIMIT $4`;

// messages_channel_correlation_idx serves it (channel_id, correlation_id, seq).
const THREAD_PAGE_SQL = `
  SELECT ${MESSAGE_COLUMNS} FROM messages
  WHERE channel_id = $1 AND correlation_id = $2 AND seq > $3 AND ($5 OR type <> 'EVENT')
  ORDER BY seq LIMIT $4`;

/**
 * The reads of stored messages that the features below posting need (summary jobs, threads, the
 * event stream): a seq range and a thread's page. Posting and the filtered reads are MessagesRepository's.
 */
@Injectable()
export class MessageReadsRepository {
  constructor(private readonly db: Database) {}

  /** Messages with afterSeq < seq ≤ throughSeq, in seq order, at most `limit`. */
  async range(channelId: string, afterSeq: number, throughSeq: number | null, limit: number, includeEvents: boolean): Promise<MessageRow[]> {
    return this.db.query(
      RANGE_SQL,
      [channelId, afterSeq, throughSeq, limit, includeEvents],
    );
  }

  /** Messages of one thread (one correlation id) after `afterSeq`, in seq order, at most `limit`; EVENTs only with `includeEvents`. */
  async threadPage(channelId: string, correlationId: string, afterSeq: number, limit: number, includeEvents: boolean): Promise<MessageRow[]> {
    return this.db.query(THREAD_PAGE_SQL, [channelId, correlationId, afterSeq, limit, includeEvents]);
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { publicChannelSql } from '../channels/channel-access';
import { Database } from '../database/database';

/**
 * At most this many channels get a backlog series (the largest backlogs first): a label per
 * channel is unbounded cardinality otherwise, and Prometheus pays for every series.
 */
export const BACKLOG_METRIC_MAX_CHANNELS = 100;

/**
 * Private channels are summed into one series under this label, so /metrics (readable with any
 * agent token) never names a channel its reader may not see. Slugs start with [a-z0-9], so it
 * cannot collide with a channel name.
 */
export const PRIVATE_CHANNELS_LABEL = '_private';

const BACKLOG_SQL = `
  SELECT CASE WHEN ${publicChannelSql('c.members')} THEN c.name ELSE $2 END AS name,
         SUM(c.last_seq - s.covers_through_seq) AS backlog
  FROM channels c JOIN channel_summaries s ON s.channel_id = c.id
  GROUP BY 1
  ORDER BY backlog DESC, name
  LIMIT $1`;

export interface ChannelBacklog {
  channel: string;
  backlog: number;
}

/** Reads the per-channel backlog from Postgres (the source of truth) at scrape time. */
@Injectable()
export class ChannelBacklogReader {
  private readonly logger = new Logger(ChannelBacklogReader.name);

  constructor(private readonly db: Database) {}

  /** Never throws: a scrape while Postgres is down still returns the other metrics. */
  async read(limit = BACKLOG_METRIC_MAX_CHANNELS): Promise<ChannelBacklog[]> {
    try {
      const rows: { name: string; backlog: string }[] = await this.db.query(BACKLOG_SQL, [limit, PRIVATE_CHANNELS_LABEL]);
      return rows.map((r) => ({ channel: r.name, backlog: Number(r.backlog) }));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'could not read channel backlogs for /metrics');
      return [];
    }
  }
}

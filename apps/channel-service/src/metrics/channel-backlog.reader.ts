import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * At most this many channels get a backlog series (the largest backlogs first): a label per
 * channel is unbounded cardinality otherwise, and Prometheus pays for every series.
 */
export const BACKLOG_METRIC_MAX_CHANNELS = 100;

export interface ChannelBacklog {
  channel: string;
  backlog: number;
}

/** Reads the per-channel backlog from Postgres (the source of truth) at scrape time. */
@Injectable()
export class ChannelBacklogReader {
  private readonly logger = new Logger(ChannelBacklogReader.name);

  constructor(private readonly db: DataSource) {}

  /** Never throws: a scrape while Postgres is down still returns the other metrics. */
  async read(limit = BACKLOG_METRIC_MAX_CHANNELS): Promise<ChannelBacklog[]> {
    try {
      const rows: { name: string; backlog: string }[] = await this.db.query(
        `SELECT c.name, c.last_seq - s.covers_through_seq AS backlog
         FROM channels c JOIN channel_summaries s ON s.channel_id = c.id
         ORDER BY backlog DESC, c.name
         LIMIT $1`,
        [limit],
      );
      return rows.map((r) => ({ channel: r.name, backlog: Number(r.backlog) }));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'could not read channel backlogs for /metrics');
      return [];
    }
  }
}

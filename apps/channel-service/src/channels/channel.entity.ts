import { ChannelInfo } from '@qhorus/api';

/** A channel as stored. `lastSeq` is the seq of its newest message (0 when empty). */
export interface Channel extends ChannelInfo {
  id: string;
  name: string;
  description: string | null;
  summaryThreshold: number;
  /** Optional token trigger: a summary is due once this many estimated tokens wait after the watermark. */
  summaryThresholdTokens: number | null;
  updateAfterSeconds: number | null;
  summariser: string;
  /** null: public. Otherwise only these agents (and the admin) can see the channel. */
  members: string[] | null;
  lastSeq: number;
  /** Estimated projection tokens of every message through lastSeq (a running total). */
  tokenTotal: number;
  /** Bumped by every lifecycle operation that changes what reads show without a post (redaction, rebuild, retention): part of a read's ETag. */
  contentEpoch: number;
  createdBy: string;
  createdAt: Date;
  /** Retention bounds (DESIGN §10); both null: kept for ever. */
  retention: ChannelRetention;
  /** The oldest kept seq: everything before it was removed by retention (1 until then). */
  firstSeq: number;
  /** Archived (read-only, no summary jobs) since then; null: not archived. */
  archivedAt: Date | null;
}

export interface ChannelRetention {
  maxAgeDays: number | null;
  maxMessages: number | null;
}

export interface ChannelRow {
  id: string;
  name: string;
  description: string | null;
  summary_threshold: number;
  summary_threshold_tokens: number | null;
  update_after_seconds: number | null;
  summariser: string;
  members: string[] | null;
  last_seq: string;
  token_total: string;
  content_epoch: string;
  created_by: string;
  created_at: Date;
  retention_max_age_days: number | null;
  retention_max_messages: number | null;
  first_seq: string;
  archived_at: Date | null;
}

export const CHANNEL_COLUMNS =
  'id, name, description, summary_threshold, summary_threshold_tokens, update_after_seconds, summariser, members, last_seq, token_total, content_epoch, created_by, created_at, retention_max_age_days, retention_max_messages, first_seq, archived_at';

/** What the summary read shows of a channel and checks access on: its hot path reads only these columns. */
export type SummaryChannel = Pick<Channel, 'name' | 'members' | 'lastSeq' | 'tokenTotal' | 'contentEpoch' | 'summariser' | 'firstSeq'>;
export type SummaryChannelRow = Pick<ChannelRow, 'name' | 'members' | 'last_seq' | 'token_total' | 'content_epoch' | 'summariser' | 'first_seq'>;
export const SUMMARY_CHANNEL_COLUMNS = 'name, members, last_seq, token_total, content_epoch, summariser, first_seq';

export function toSummaryChannel(r: SummaryChannelRow): SummaryChannel {
  return { name: r.name, members: r.members, lastSeq: Number(r.last_seq), tokenTotal: Number(r.token_total), contentEpoch: Number(r.content_epoch), summariser: r.summariser, firstSeq: Number(r.first_seq) };
}

/** bigint columns arrive as strings from `pg`: converted here, at the edge. */
export function toChannel(r: ChannelRow): Channel {
  return {
    id: String(r.id),
    name: r.name,
    description: r.description,
    summaryThreshold: r.summary_threshold,
    summaryThresholdTokens: r.summary_threshold_tokens,
    updateAfterSeconds: r.update_after_seconds,
    summariser: r.summariser,
    members: r.members,
    lastSeq: Number(r.last_seq),
    tokenTotal: Number(r.token_total),
    contentEpoch: Number(r.content_epoch),
    createdBy: r.created_by,
    createdAt: r.created_at,
    retention: { maxAgeDays: r.retention_max_age_days, maxMessages: r.retention_max_messages },
    firstSeq: Number(r.first_seq),
    archivedAt: r.archived_at,
  };
}

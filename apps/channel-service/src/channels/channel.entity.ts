import { ChannelInfo } from '@qhorus/api';

/** A channel as stored. `lastSeq` is the seq of its newest message (0 when empty). */
export interface Channel extends ChannelInfo {
  id: string;
  name: string;
  description: string | null;
  summaryThreshold: number;
  updateAfterSeconds: number | null;
  summariser: string;
  /** null: public. Otherwise only these agents (and the admin) can see the channel. */
  members: string[] | null;
  lastSeq: number;
  createdBy: string;
  createdAt: Date;
}

export interface ChannelRow {
  id: string;
  name: string;
  description: string | null;
  summary_threshold: number;
  update_after_seconds: number | null;
  summariser: string;
  members: string[] | null;
  last_seq: string;
  created_by: string;
  created_at: Date;
}

export const CHANNEL_COLUMNS =
  'id, name, description, summary_threshold, update_after_seconds, summariser, members, last_seq, created_by, created_at';

/** bigint columns arrive as strings from `pg`: converted here, at the edge. */
export function toChannel(r: ChannelRow): Channel {
  return {
    id: String(r.id),
    name: r.name,
    description: r.description,
    summaryThreshold: r.summary_threshold,
    updateAfterSeconds: r.update_after_seconds,
    summariser: r.summariser,
    members: r.members,
    lastSeq: Number(r.last_seq),
    createdBy: r.created_by,
    createdAt: r.created_at,
  };
}

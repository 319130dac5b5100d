import { Injectable } from '@nestjs/common';
import { readableSql, Viewer } from '../channels/channel-access';
import { Database } from '../database/database';
import { SearchPosition } from './search-cursor';
import { HEADLINE_OPTIONS } from './search-snippet';

/** The configuration vectors are built with, and what `q` parses to in it. */
const PARSE_SQL = `
  SELECT s.config IS NOT NULL AS configured,
         numnode(websearch_to_tsquery(s.config::regconfig, $1)) AS nodes,
         querytree(websearch_to_tsquery(s.config::regconfig, $1)) AS indexable
  FROM search_config s`;

/**
 * One search, as two statement texts (all readable channels, or one channel the service has
 * already checked): separate texts so each gets its own plan — one channel's messages are few,
 * a word's matches across all channels may be many. Steps, each MATERIALIZED so the plan stays
 * the same whatever the estimates:
 *  q: the query in the recorded configuration (search_config), so it always matches the vectors;
 *     LIMIT 1 tells the planner it is one row (a one-row table is never analysed: it estimated
 *     1,360, multiplied every estimate after it, and the cost crossed jit_above_cost — JIT
 *     compilation took 1.9 s of a 2 s search for a rare word);
 *  r: the channels in scope: those the access rule itself (`readableSql`) lets the viewer read;
 *  h: the matches, through the GIN index, ranked (ts_rank_cd) with only small columns;
 *  page: the next `limit` after the cursor, best first, ties by channel then seq (a total order,
 *        so paging has no duplicate and no gap); channel names compare bytewise (COLLATE "C").
 * Then only the page's rows are read whole and given a snippet (ts_headline re-parses content).
 * $1 q · $2 viewer name · $3 viewer is admin · $4 types (null: all) · $5 sender (null: any) ·
 * $6 include EVENTs · $7-$9 cursor rank/channel/seq (null: first page) · $10 limit ·
 * $11 ts_headline options · $12 channel id (one-channel text only).
 */
function searchSql(scope: 'all' | 'channel'): string {
  const readable = readableSql('c.members', { name: '$2', admin: '$3' });
  const channels = `SELECT c.id, c.name FROM channels c WHERE ${readable}${scope === 'all' ? '' : ' AND c.id = $12'}`;
  const inChannel = scope === 'all' ? '' : 'AND m.channel_id = $12';
  return `
  WITH q AS MATERIALIZED (
    SELECT s.config::regconfig AS config, websearch_to_tsquery(s.config::regconfig, $1) AS query FROM search_config s LIMIT 1
  ), r AS MATERIALIZED (${channels}
  ), h AS MATERIALIZED (
    SELECT m.channel_id, m.seq, ts_rank_cd(m.search_vector, q.query) AS rank
    FROM q, messages m
    WHERE m.search_vector @@ q.query ${inChannel}
      AND ($4::text[] IS NULL OR m.type = ANY($4::text[]))
      AND ($5::text IS NULL OR m.sender = $5::text)
      AND ($6::boolean OR m.type <> 'EVENT')
  ), page AS (
    SELECT r.name AS channel, h.channel_id, h.seq, h.rank FROM h JOIN r ON r.id = h.channel_id
    WHERE $7::real IS NULL OR h.rank < $7::real
       OR (h.rank = $7::real AND (r.name COLLATE "C" > $8::text OR (r.name COLLATE "C" = $8::text AND h.seq > $9::bigint)))
    ORDER BY h.rank DESC, r.name COLLATE "C", h.seq
    LIMIT $10
  )
  SELECT p.channel, p.seq, m.sender, m.type, m.topic, m.created_at, p.rank::text AS rank,
         ts_headline(q.config, coalesce(m.content, ''), q.query, $11) AS snippet
  FROM page p JOIN messages m ON m.channel_id = p.channel_id AND m.seq = p.seq CROSS JOIN q
  ORDER BY p.rank DESC, p.channel COLLATE "C", p.seq`;
}

const SEARCH_ALL_SQL = searchSql('all');
const SEARCH_CHANNEL_SQL = searchSql('channel');

export interface ParsedQuery {
  /** A configuration is recorded (false only before the service's first start completed). */
  configured: boolean;
  /** Nodes of the parsed query: 0 when it has no searchable word (only punctuation or stop words). */
  nodes: number;
  /** The part an index can answer: 'T' when there is none (only excluded words). */
  indexable: string;
}

export interface SearchFilters {
  q: string;
  types: string[] | null;
  sender: string | null;
  includeEvents: boolean;
  after: SearchPosition | null;
  limit: number;
}

export interface SearchRow {
  channel: string;
  seq: string;
  sender: string;
  type: string;
  topic: string;
  created_at: Date;
  rank: string;
  snippet: string;
}

@Injectable()
export class SearchRepository {
  constructor(private readonly db: Database) {}

  async parse(q: string): Promise<ParsedQuery> {
    const [row] = await this.db.query<{ configured: boolean; nodes: number | null; indexable: string | null }>(PARSE_SQL, [q]);
    return { configured: row.configured, nodes: row.nodes ?? 0, indexable: row.indexable ?? 'T' };
  }

  /** Across every channel `viewer` may read (the access rule in SQL), or in one channel (already checked) when `channelId` is given. */
  search(viewer: Viewer, filters: SearchFilters, channelId: string | null): Promise<SearchRow[]> {
    const { q, types, sender, includeEvents, after, limit } = filters;
    const values: unknown[] = [q, viewer.name, viewer.admin, types, sender, includeEvents, after?.rank ?? null, after?.channel ?? null, after?.seq ?? null, limit, HEADLINE_OPTIONS];
    return channelId === null ? this.db.query(SEARCH_ALL_SQL, values) : this.db.query(SEARCH_CHANNEL_SQL, [...values, channelId]);
  }
}

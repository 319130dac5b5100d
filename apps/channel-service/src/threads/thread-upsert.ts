import { MessageType } from '@qhorus/api';
import { GroupMessage, groupTransitionTable } from './thread-transitions';

/** A message of a post as the thread index sees it. */
export interface ThreadedMessage {
  type: MessageType;
  target: string | null;
  correlationId: string | null;
}

/** Per thread a post touches: its correlation id, its folded transition table (JSON) and its last message's 1-based position in the post. */
export interface ThreadUpsertParams {
  correlationIds: string[];
  tables: string[];
  lastOrds: number[];
}

/** The thread upsert's parameters for the messages of one post (a single post is a batch of one); null when none has a correlation id. */
export function threadUpsertParams(batch: readonly ThreadedMessage[]): ThreadUpsertParams | null {
  const groups = new Map<string, GroupMessage[]>();
  batch.forEach((m, i) => {
    if (m.correlationId === null) return;
    const group = groups.get(m.correlationId) ?? [];
    group.push({ type: m.type, target: m.target, ord: i + 1 });
    groups.set(m.correlationId, group);
  });
  if (groups.size === 0) return null;
  const entries = [...groups.entries()];
  return {
    correlationIds: entries.map(([id]) => id),
    tables: entries.map(([, g]) => JSON.stringify(groupTransitionTable(g))),
    lastOrds: entries.map(([, g]) => g[g.length - 1].ord),
  };
}

/** Where the post statement keeps what the upsert needs: SQL expressions and the placeholders of ThreadUpsertParams. */
export interface ThreadUpsertSources {
  /** The FROM item giving the channel (one row). */
  channel: string;
  channelId: string;
  /** The seq just before the post's first message (its message i has this + i). */
  seqBefore: string;
  /** The poster (opener of what the post opens). */
  sender: string;
  correlationIds: string;
  tables: string;
  lastOrds: string;
}

/**
 * The thread index's part of the post statement: a CTE `name` that upserts one row per thread
 * the post touches, returning its correlation id and closed seq. One statement writes a row once,
 * so the post's messages of one thread come folded into one transition table by
 * groupTransitionTable (computed from threadStep); offsets in it count back from the thread's
 * last message in the post. The statement looks the thread's current state up in it. It is
 * always an upsert (a correlation id with no thread gets a row with a NULL status) because ON
 * CONFLICT DO UPDATE works on the LATEST committed row, even one committed after the statement's
 * snapshot was taken while it waited for the channel row lock; a plain read of threads would see
 * the stale snapshot.
 */
export function threadUpsertCte(name: string, p: ThreadUpsertSources): string {
  return `${name} AS (
    INSERT INTO threads AS t (channel_id, correlation_id, status, type, owner, opener, opened_seq, opened_at, closed_seq, updated_seq, updated_at)
    SELECT ${p.channelId}, g.cid, n.x->>'s', n.x->>'y', n.x->>'owner',
           CASE WHEN n.x->>'open' IS NOT NULL THEN ${p.sender} END,
           CASE WHEN n.x->>'open' IS NOT NULL THEN ${p.seqBefore} + g.last_ord - (n.x->>'open')::int END,
           CASE WHEN n.x->>'open' IS NOT NULL THEN now() END,
           CASE WHEN jsonb_typeof(n.x->'close') = 'number' THEN ${p.seqBefore} + g.last_ord - (n.x->>'close')::int END,
           ${p.seqBefore} + g.last_ord, now()
    FROM ${p.channel}, unnest(${p.correlationIds}::text[], ${p.tables}::jsonb[], ${p.lastOrds}::int[]) AS g(cid, tbl, last_ord), LATERAL (SELECT g.tbl -> '|' AS x) n
    ON CONFLICT (channel_id, correlation_id) DO UPDATE SET
      (status, type, owner, opener, opened_seq, opened_at, closed_seq, updated_seq, updated_at) = (
        SELECT k.x->>'s', k.x->>'y',
               CASE WHEN k.x->>'o' = 'set' THEN k.x->>'owner' ELSE t.owner END,
               CASE WHEN k.x->>'open' IS NOT NULL THEN ${p.sender} ELSE t.opener END,
               CASE WHEN k.x->>'open' IS NOT NULL THEN EXCLUDED.updated_seq - (k.x->>'open')::int ELSE t.opened_seq END,
               CASE WHEN k.x->>'open' IS NOT NULL THEN EXCLUDED.updated_at ELSE t.opened_at END,
               CASE WHEN jsonb_typeof(k.x->'close') = 'number' THEN EXCLUDED.updated_seq - (k.x->>'close')::int
                    WHEN k.x->>'close' = 'clear' THEN NULL ELSE t.closed_seq END,
               EXCLUDED.updated_seq, EXCLUDED.updated_at
        FROM (SELECT (SELECT g.tbl FROM unnest(${p.correlationIds}::text[], ${p.tables}::jsonb[]) AS g(cid, tbl) WHERE g.cid = EXCLUDED.correlation_id)
                     -> (COALESCE(t.status, '') || '|' || COALESCE(t.type, '')) AS x) k)
    RETURNING t.correlation_id, t.closed_seq
  )`;
}

import { MigrationInterface, QueryRunner } from 'typeorm';
import { THREAD_RULES_AT_1765600000000 } from './1765600000000-thread-rules';

/** Messages folded per round trip by the backfill. */
export const THREAD_BACKFILL_BATCH = 1000;

/** Statuses of a closed thread (DESIGN §2), as of this migration. */
const CLOSED_LIST = ['answered', 'done', 'declined', 'failed'].map((s) => `'${s}'`).join(', ');

/** A thread row as the backfill folds it (the columns the post statement writes). */
interface FoldedThread {
  channelId: string;
  correlationId: string;
  status: string | null;
  type: string | null;
  owner: string | null;
  opener: string | null;
  openedSeq: string | null;
  openedAt: Date | null;
  closedSeq: string | null;
  updatedSeq: string;
  updatedAt: Date;
}

const BATCH_SQL = `
  SELECT channel_id, seq, type, sender, correlation_id, target, created_at FROM messages
  WHERE correlation_id IS NOT NULL AND (channel_id, seq) > ($1::bigint, $2::bigint)
  ORDER BY channel_id, seq LIMIT $3`;

const EXISTING_SQL = `
  SELECT channel_id, correlation_id, status, type, owner, opener, opened_seq, opened_at, closed_seq, updated_seq, updated_at
  FROM threads WHERE (channel_id, correlation_id) IN (SELECT * FROM unnest($1::bigint[], $2::text[]))`;

const UPSERT_SQL = `
  INSERT INTO threads (channel_id, correlation_id, status, type, owner, opener, opened_seq, opened_at, closed_seq, updated_seq, updated_at)
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::timestamptz[], $9::bigint[], $10::bigint[], $11::timestamptz[])
  ON CONFLICT (channel_id, correlation_id) DO UPDATE SET
    status = EXCLUDED.status, type = EXCLUDED.type, owner = EXCLUDED.owner, opener = EXCLUDED.opener,
    opened_seq = EXCLUDED.opened_seq, opened_at = EXCLUDED.opened_at, closed_seq = EXCLUDED.closed_seq,
    updated_seq = EXCLUDED.updated_seq, updated_at = EXCLUDED.updated_at`;

/**
 * The durable thread index (DESIGN §2, issue 16): one row per correlation id of a channel, kept
 * by the post statement itself from then on. A row with a NULL status records a correlation id
 * that only carries follow-ups (no QUERY, COMMAND or HANDOFF opened a thread for it yet), so the
 * post statement can always upsert and always sees the latest row (see messages.repository.ts).
 *
 * Backfill: each channel's messages with a correlation id, folded in seq order through the thread
 * rules as of this migration (1765600000000-thread-rules.ts, a checked copy of applyThreadRule's
 * table), in batches. `summarised_seq` marks what thread_summaries already
 * covers, so only closed threads without a summary of their last close become due.
 */
export class ThreadIndex1765600000000 implements MigrationInterface {
  name = 'ThreadIndex1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE threads (
        channel_id        bigint NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        correlation_id    text NOT NULL,
        status            text CHECK (status IN ('open', ${CLOSED_LIST})),
        type              text,
        owner             text,
        opener            text,
        opened_seq        bigint,
        opened_at         timestamptz,
        closed_seq        bigint,
        updated_seq       bigint NOT NULL,
        updated_at        timestamptz NOT NULL,
        summarised_seq    bigint,
        summary_error     text,
        summary_error_at  timestamptz,
        PRIMARY KEY (channel_id, correlation_id)
      )`);
    // GET …/threads (all, and ?status=), oldest first.
    await q.query(`CREATE INDEX threads_channel_opened_idx ON threads (channel_id, opened_seq) WHERE status IS NOT NULL`);
    await q.query(`CREATE INDEX threads_channel_status_idx ON threads (channel_id, status, opened_seq) WHERE status IS NOT NULL`);
    // The inbox: open threads owed by one agent, and untargeted open requests.
    await q.query(`CREATE INDEX threads_inbox_owner_idx ON threads (owner, opened_at) WHERE status = 'open' AND owner IS NOT NULL`);
    await q.query(`CREATE INDEX threads_inbox_untargeted_idx ON threads (opened_at) WHERE status = 'open' AND owner IS NULL`);
    // The sweep: closed threads with no summary of their last close.
    await q.query(`
      CREATE INDEX threads_summary_due_idx ON threads (closed_seq)
      WHERE status IN (${CLOSED_LIST}) AND (summarised_seq IS NULL OR summarised_seq < closed_seq)`);
    await backfill(q);
    await q.query(`
      UPDATE threads t SET summarised_seq = s.last_seq
      FROM thread_summaries s WHERE s.channel_id = t.channel_id AND s.correlation_id = t.correlation_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS threads`);
  }
}

interface BackfillRow {
  channel_id: string;
  seq: string;
  type: string;
  sender: string;
  correlation_id: string;
  target: string | null;
  created_at: Date;
}

async function backfill(q: QueryRunner): Promise<void> {
  let after: [string, string] = ['0', '0'];
  for (;;) {
    const rows: BackfillRow[] = await q.query(BATCH_SQL, [after[0], after[1], THREAD_BACKFILL_BATCH]);
    if (rows.length === 0) return;
    const threads = await existing(q, rows);
    for (const m of rows) fold(threads, m);
    await upsert(q, [...threads.values()]);
    const last = rows[rows.length - 1];
    after = [String(last.channel_id), String(last.seq)];
  }
}

const keyOf = (channelId: string, correlationId: string) => `${channelId}:${correlationId}`;

/** The rows earlier batches wrote for the threads this batch touches. */
async function existing(q: QueryRunner, rows: BackfillRow[]): Promise<Map<string, FoldedThread>> {
  const keys = new Map(rows.map((r) => [keyOf(String(r.channel_id), r.correlation_id), r]));
  const found = await q.query(EXISTING_SQL, [[...keys.values()].map((r) => r.channel_id), [...keys.values()].map((r) => r.correlation_id)]);
  const threads = new Map<string, FoldedThread>();
  for (const t of found) {
    threads.set(keyOf(String(t.channel_id), t.correlation_id), {
      channelId: String(t.channel_id),
      correlationId: t.correlation_id,
      status: t.status,
      type: t.type,
      owner: t.owner,
      opener: t.opener,
      openedSeq: t.opened_seq,
      openedAt: t.opened_at,
      closedSeq: t.closed_seq,
      updatedSeq: t.updated_seq,
      updatedAt: t.updated_at,
    });
  }
  return threads;
}

/** One message through the thread rules, exactly as the post statement applies them. */
function fold(threads: Map<string, FoldedThread>, m: BackfillRow): void {
  const key = keyOf(String(m.channel_id), m.correlation_id);
  const row = threads.get(key);
  const prior = row?.status && row.type ? `${row.status}|${row.type}` : '|';
  const x = THREAD_RULES_AT_1765600000000[m.type]?.[prior];
  if (!x) throw new Error(`thread index backfill: no rule for a ${m.type} message in a thread '${prior}' (message ${m.seq} of channel ${m.channel_id})`);
  const seq = String(m.seq);
  threads.set(key, {
    channelId: String(m.channel_id),
    correlationId: m.correlation_id,
    status: x.s,
    type: x.y,
    owner: x.s === null ? null : x.o === 'target' ? m.target : (row?.owner ?? null),
    opener: x.open ? m.sender : (row?.opener ?? null),
    openedSeq: x.open ? seq : (row?.openedSeq ?? null),
    openedAt: x.open ? m.created_at : (row?.openedAt ?? null),
    closedSeq: x.close ? seq : x.open ? null : (row?.closedSeq ?? null),
    updatedSeq: seq,
    updatedAt: m.created_at,
  });
}

async function upsert(q: QueryRunner, threads: FoldedThread[]): Promise<void> {
  const col = <K extends keyof FoldedThread>(k: K) => threads.map((t) => t[k]);
  await q.query(UPSERT_SQL, [
    col('channelId'),
    col('correlationId'),
    col('status'),
    col('type'),
    col('owner'),
    col('opener'),
    col('openedSeq'),
    col('openedAt'),
    col('closedSeq'),
    col('updatedSeq'),
    col('updatedAt'),
  ]);
}

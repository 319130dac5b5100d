import { StartupError } from '../config/startup-error';

/**
 * The message search index's upkeep (migration 1765830000000): which text-search configuration the
 * vectors are built with, the batched pass that (re)builds them, and the GIN index, built
 * CONCURRENTLY. Everything runs as single autocommit statements, outside any transaction, so
 * posts are never held back (docs/benchmarks.md, "Search index migration").
 * Used by the service at start-up (SearchIndexMaintainer) and by `npm run search:reindex`.
 */

/** What runs the statements: the app's Database, or one pg connection of its own. */
export interface SqlSession {
  query<Row = unknown>(text: string, values?: unknown[]): Promise<Row[]>;
}

/** The GIN index over messages.search_vector. */
export const SEARCH_INDEX_NAME = 'messages_search_idx';
/** An arbitrary, fixed key: one instance at a time runs the pass ("QSrc"). */
export const SEARCH_INDEX_LOCK_KEY = 0x5153_7263;
/** How long a configuration switch waits for posts in flight before it gives up (and is retried by the caller). */
export const SWITCH_LOCK_TIMEOUT_MS = 5_000;
/** The command an operator runs after changing QHORUS_SEARCH_CONFIG. */
export const REINDEX_COMMAND = 'npm run search:reindex';

export interface SearchConfigState {
  /** The configuration vectors are built with (null: not chosen yet). */
  config: string | null;
  /** A pass in progress: rows with id in (after, through] are still to rebuild. */
  pending: { after: number; through: number } | null;
}

const CANONICAL_CONFIG_SQL = `SELECT $1::regconfig::text AS name`;
const STATE_SQL = `SELECT config, reindex_after, reindex_through FROM search_config`;
const SWITCH_SQL = `SELECT search_config_switch($1, $2) AS through`;
/** Rebuilds one id range by firing the trigger (the one definition of the document), and records the progress in the same statement. */
const BATCH_SQL = `
  WITH rebuilt AS (UPDATE messages SET topic = topic WHERE id > $1 AND id <= $2 RETURNING 1)
  UPDATE search_config SET
    reindex_after = CASE WHEN $2 >= reindex_through THEN NULL ELSE $2 END,
    reindex_through = CASE WHEN $2 >= reindex_through THEN NULL ELSE reindex_through END,
    updated_at = now()
  WHERE reindex_after = $1 AND reindex_through = $3
  RETURNING (SELECT count(*) FROM rebuilt) AS rebuilt`;
const INDEX_STATE_SQL = `SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = to_regclass($1)`;
const DROP_INDEX_SQL = `DROP INDEX CONCURRENTLY IF EXISTS ${SEARCH_INDEX_NAME}`;
const CREATE_INDEX_SQL = `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${SEARCH_INDEX_NAME} ON messages USING gin (search_vector)`;
const TRY_LOCK_SQL = `SELECT pg_try_advisory_lock($1) AS locked`;
const UNLOCK_SQL = `SELECT pg_advisory_unlock($1)`;

/** Postgres' "undefined object": a configuration name that does not exist. */
const UNDEFINED_OBJECT = '42704';

/** The configuration's canonical name (`english`, `public.mine`), or a StartupError naming the knob. */
export async function canonicalConfig(session: SqlSession, name: string): Promise<string> {
  try {
    const [row] = await session.query<{ name: string }>(CANONICAL_CONFIG_SQL, [name]);
    return row.name;
  } catch (err) {
    if ((err as { code?: string }).code !== UNDEFINED_OBJECT) throw err;
    throw new StartupError(`QHORUS_SEARCH_CONFIG '${name}' is not a text search configuration of this database (SELECT cfgname FROM pg_ts_config lists them)`);
  }
}

export async function readState(session: SqlSession): Promise<SearchConfigState> {
  const [row] = await session.query<{ config: string | null; reindex_after: string | null; reindex_through: string | null }>(STATE_SQL);
  return {
    config: row.config,
    pending: row.reindex_after === null || row.reindex_through === null ? null : { after: Number(row.reindex_after), through: Number(row.reindex_through) },
  };
}

/** Records `config` as the configuration and starts a pass over every existing message. Returns the pass's last id. */
export async function switchConfig(session: SqlSession, config: string): Promise<number> {
  const [row] = await session.query<{ through: string }>(SWITCH_SQL, [config, SWITCH_LOCK_TIMEOUT_MS]);
  return Number(row.through);
}

export interface PassProgress {
  rebuilt: number;
  after: number;
  through: number;
}

/**
 * Runs the pending pass to its end in batches of `batch` ids (each its own statement), resuming
 * where an earlier one stopped. Stops early when `stop()` says so, or when someone else moved the
 * pass on (another switch): the state no longer matches what this run read. Returns the rows rebuilt.
 */
export async function runPass(session: SqlSession, batch: number, stop: () => boolean = () => false, onProgress?: (p: PassProgress) => void): Promise<number> {
  let total = 0;
  let state = (await readState(session)).pending;
  while (state && !stop()) {
    const upTo = Math.min(state.after + batch, state.through);
    const rows = await session.query<{ rebuilt: string }>(BATCH_SQL, [state.after, upTo, state.through]);
    if (rows.length === 0) break; // moved on by someone else
    total += Number(rows[0].rebuilt);
    onProgress?.({ rebuilt: total, after: upTo, through: state.through });
    state = upTo >= state.through ? null : { after: upTo, through: state.through };
  }
  return total;
}

/** Builds the GIN index if it is missing, first dropping one a failed concurrent build left invalid. Returns whether it built one. */
export async function ensureIndex(session: SqlSession): Promise<boolean> {
  const [existing] = await session.query<{ valid: boolean }>(INDEX_STATE_SQL, [SEARCH_INDEX_NAME]);
  if (existing?.valid) return false;
  if (existing) await session.query(DROP_INDEX_SQL);
  await session.query(CREATE_INDEX_SQL);
  return true;
}

/** Whether the index exists and is usable. */
export async function indexReady(session: SqlSession): Promise<boolean> {
  const [existing] = await session.query<{ valid: boolean }>(INDEX_STATE_SQL, [SEARCH_INDEX_NAME]);
  return existing?.valid === true;
}

/** Runs `work` holding the pass's advisory lock on `session` (a session of its own), or returns null when another holds it. */
export async function withPassLock<T>(session: SqlSession, work: () => Promise<T>): Promise<T | null> {
  const [{ locked }] = await session.query<{ locked: boolean }>(TRY_LOCK_SQL, [SEARCH_INDEX_LOCK_KEY]);
  if (!locked) return null;
  try {
    return await work();
  } finally {
    await session.query(UNLOCK_SQL, [SEARCH_INDEX_LOCK_KEY]);
  }
}

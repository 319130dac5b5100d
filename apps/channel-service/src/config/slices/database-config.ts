import { configSlice } from '../config-slice';

/** database/ (and whoever opens a connection of its own): where Postgres is and how the pool behaves. */
export class DatabaseConfig extends configSlice((config) => ({
  /** DATABASE_URL; undefined: the embedded PGlite under `dataDir`. */
  url: config.DATABASE_URL,
  embedded: config.embeddedDatabase,
  dataDir: config.QHORUS_DATA_DIR,
  poolSize: config.QHORUS_DB_POOL_SIZE,
  queryTimeoutMs: config.QHORUS_DB_QUERY_TIMEOUT_MS,
})) {}

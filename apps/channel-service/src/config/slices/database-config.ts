import { AppConfig } from '../app-config';

/** database/ (and whoever opens a connection of its own): where Postgres is and how the pool behaves. */
export class DatabaseConfig {
  /** DATABASE_URL; undefined: the embedded PGlite under `dataDir`. */
  readonly url: string | undefined;
  readonly embedded: boolean;
  readonly dataDir: string;
  readonly poolSize: number;
  readonly queryTimeoutMs: number;

  constructor(config: AppConfig) {
    this.url = config.DATABASE_URL;
    this.embedded = config.embeddedDatabase;
    this.dataDir = config.QHORUS_DATA_DIR;
    this.poolSize = config.QHORUS_DB_POOL_SIZE;
    this.queryTimeoutMs = config.QHORUS_DB_QUERY_TIMEOUT_MS;
  }
}

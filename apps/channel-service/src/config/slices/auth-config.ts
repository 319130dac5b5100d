import { AppConfig } from '../app-config';

/** auth/: the admin token, the token caches, the failure limit, and the last-seen writes. */
export class AuthConfig {
  /** QHORUS_ADMIN_TOKEN; undefined: the deployment's token, generated into a file in `dataDir`. */
  readonly adminToken: string | undefined;
  readonly dataDir: string;
  /** Agent tokens found, and tokens that matched nobody: how many each cache keeps, and for how long. */
  readonly knownTokens: { readonly size: number; readonly ttlMs: number };
  readonly unknownTokens: { readonly size: number; readonly ttlMs: number };
  /** Failed authentications per client address (a token bucket). */
  readonly failures: { readonly ratePerSecond: number; readonly burst: number };
  readonly lastSeenFlushMs: number;

  constructor(config: AppConfig) {
    this.adminToken = config.QHORUS_ADMIN_TOKEN;
    this.dataDir = config.QHORUS_DATA_DIR;
    this.knownTokens = { size: config.QHORUS_TOKEN_CACHE_SIZE, ttlMs: config.QHORUS_TOKEN_CACHE_TTL_MS };
    this.unknownTokens = { size: config.QHORUS_AUTH_NEGATIVE_CACHE_SIZE, ttlMs: config.QHORUS_AUTH_NEGATIVE_CACHE_TTL_MS };
    this.failures = { ratePerSecond: config.QHORUS_AUTH_FAILURES_PER_SECOND, burst: config.QHORUS_AUTH_FAILURE_BURST };
    this.lastSeenFlushMs = config.QHORUS_LAST_SEEN_FLUSH_MS;
  }
}

import { configSlice } from '../config-slice';

/** auth/: the admin token, the token caches, the failure limit, and the last-seen writes. */
export class AuthConfig extends configSlice((config) => ({
  /** QHORUS_ADMIN_TOKEN; undefined: the deployment's token, generated into a file in `dataDir`. */
  adminToken: config.QHORUS_ADMIN_TOKEN,
  dataDir: config.QHORUS_DATA_DIR,
  /** Agent tokens found, and tokens that matched nobody: how many each cache keeps, and for how long. */
  knownTokens: { size: config.QHORUS_TOKEN_CACHE_SIZE, ttlMs: config.QHORUS_TOKEN_CACHE_TTL_MS },
  unknownTokens: { size: config.QHORUS_AUTH_NEGATIVE_CACHE_SIZE, ttlMs: config.QHORUS_AUTH_NEGATIVE_CACHE_TTL_MS },
  /** Failed authentications per client address (a token bucket). */
  failures: { ratePerSecond: config.QHORUS_AUTH_FAILURES_PER_SECOND, burst: config.QHORUS_AUTH_FAILURE_BURST },
  lastSeenFlushMs: config.QHORUS_LAST_SEEN_FLUSH_MS,
})) {}

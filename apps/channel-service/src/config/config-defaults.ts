import { DEFAULT_SUMMARY_TEXT_MAX_CHARS } from '@qhorus/blocks-summarisation';
import { LlmProviderName } from './model-provider-config';

/*
 * The configuration's names and defaults: every knob with its named default, the tuning knobs,
 * the knobs without a default, and the value sets they take. Validated by AppConfig (app-config.ts).
 */

export const ROLES = ['api', 'worker', 'all'] as const;
export type Role = (typeof ROLES)[number];
export const LLM_MODES = ['EDIT', 'APPEND'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** Who may give a channel a model-backed summariser (`llm`, `tiered`): see docs/decisions.md. */
export const MODEL_SUMMARISER_POLICIES = ['admin', 'creator', 'anyone'] as const;
export type ModelSummariserPolicy = (typeof MODEL_SUMMARISER_POLICIES)[number];

/** The longest retention a channel (or the deployment default) may set, in days (100 years). */
export const MAX_RETENTION_DAYS = 36_500;

/** A long poll must answer before an MCP client's default 60 s request timeout. */
export const LONG_POLL_CEILING_MS = 59_000;

/**
 * Every knob and its named default. `.env.example` and the README list the user settings;
 * the internal tuning values (TUNING_KNOBS) are listed in docs/tuning.md instead.
 */
export const CONFIG_DEFAULTS = {
  PORT: 3000,
  HOST: '0.0.0.0',
  QHORUS_DATA_DIR: './.data',
  QHORUS_ROLE: 'all' as Role,
  QHORUS_SUMMARY_THRESHOLD: 20,
  QHORUS_QUEUE_PREFIX: 'qhorus',
  // Model provider (issue 31); QHORUS_LLM_MODEL's default depends on it (DEFAULT_LLM_MODELS).
  QHORUS_LLM_PROVIDER: 'anthropic' as LlmProviderName,
  QHORUS_LLM_MODE: 'EDIT' as (typeof LLM_MODES)[number],
  QHORUS_LLM_TIMEOUT_MS: 30_000,
  QHORUS_LLM_MAX_TOKENS: 1024,
  QHORUS_TIERED_SMALL_MAX: 5,
  QHORUS_TIERED_MEDIUM_MAX: 20,
  QHORUS_SUMMARY_CHUNK_SIZE: 500,
  QHORUS_SUMMARY_TIMEOUT_MS: 60_000,
  QHORUS_SUMMARY_ABORT_GRACE_MS: 30_000,
  QHORUS_SUMMARY_HISTORY_KEEP: 50,
  QHORUS_SUMMARY_TEXT_MAX_CHARS: DEFAULT_SUMMARY_TEXT_MAX_CHARS,
  QHORUS_JOB_ATTEMPTS: 3,
  QHORUS_JOB_BACKOFF_MS: 1_000,
  QHORUS_WORKER_CONCURRENCY: 4,
  QHORUS_JOB_LOCK_MS: 5_000,
  QHORUS_JOB_STALLED_CHECK_MS: 2_000,
  QHORUS_SWEEP_INTERVAL_MS: 5_000,
  QHORUS_SWEEP_BATCH: 1_000,
  QHORUS_MAX_CONTENT_BYTES: 64 * 1024,
  QHORUS_BODY_LIMIT_BYTES: 1024 * 1024,
  QHORUS_BATCH_MAX_MESSAGES: 500,
  QHORUS_BATCH_BODY_LIMIT_BYTES: 4 * 1024 * 1024,
  QHORUS_JSON_MAX_DEPTH: 32,
  QHORUS_PAGE_LIMIT_MAX: 1000,
  QHORUS_PAGE_LIMIT_DEFAULT: 100,
  QHORUS_LONG_POLL_MAX_MS: 30_000,
  QHORUS_LONG_POLL_MAX_PER_AGENT: 16,
  QHORUS_RATE_LIMIT_PER_SECOND: 200,
  QHORUS_RATE_LIMIT_BURST: 1000,
  QHORUS_RATE_LIMIT_LEASE: 10,
  QHORUS_DB_POOL_SIZE: 10,
  QHORUS_DB_QUERY_TIMEOUT_MS: 15_000,
  QHORUS_TOKEN_CACHE_SIZE: 10_000,
  QHORUS_TOKEN_CACHE_TTL_MS: 30_000,
  QHORUS_AUTH_NEGATIVE_CACHE_SIZE: 10_000,
  QHORUS_AUTH_NEGATIVE_CACHE_TTL_MS: 60_000,
  QHORUS_AUTH_FAILURES_PER_SECOND: 1,
  QHORUS_AUTH_FAILURE_BURST: 100,
  QHORUS_TRUST_PROXY: 'loopback',
  QHORUS_LAST_SEEN_FLUSH_MS: 30_000,
  QHORUS_MAX_METADATA_BYTES: 16 * 1024,
  QHORUS_MAX_CHANNELS_PER_AGENT: 1_000,
  QHORUS_MAX_SSE_STREAMS_PER_AGENT: 32,
  QHORUS_MODEL_SUMMARISER_POLICY: 'admin' as ModelSummariserPolicy,
  QHORUS_MODEL_SUMMARY_MIN_THRESHOLD: 10,
  QHORUS_MODEL_SUMMARY_MIN_TOKENS: 500,
  QHORUS_MODEL_SUMMARY_MIN_SECONDS: 120,
  QHORUS_MODEL_CALLS_PER_HOUR: 30,
  QHORUS_MODEL_TOKENS_PER_DAY: 500_000,
  QHORUS_SHUTDOWN_TIMEOUT_MS: 10_000,
  // Data lifecycle: retention and export (issue 29). QHORUS_RETENTION_MAX_AGE_DAYS has no default: unset = kept for ever.
  QHORUS_RETENTION_SWEEP_MS: 60_000,
  QHORUS_RETENTION_BATCH: 100,
  QHORUS_RETENTION_BATCH_MESSAGES: 1_000,
  QHORUS_EXPORT_PAGE_SIZE: 500,
  // Data lifecycle (redaction, deletion; DESIGN §10)
  QHORUS_REDACTION_REASON_MAX_CHARS: 1_000,
  // Search (issue 32, DESIGN §12)
  QHORUS_SEARCH_CONFIG: 'simple',
  QHORUS_SEARCH_QUERY_MAX_CHARS: 500,
  QHORUS_SEARCH_LIMIT_DEFAULT: 20,
  QHORUS_SEARCH_LIMIT_MAX: 100,
  QHORUS_SEARCH_SNIPPET_MAX_CHARS: 300,
  QHORUS_SEARCH_REINDEX_BATCH: 5_000,
  // Published contracts (issue 28): the names /mcp answers to besides its own addresses.
  QHORUS_ALLOWED_HOSTS: '',
  LOG_LEVEL: 'info' as LogLevel,
  // Webhooks (DESIGN §11)
  QHORUS_WEBHOOK_ALLOWED_HOSTS: '',
  QHORUS_WEBHOOK_TIMEOUT_MS: 10_000,
  QHORUS_WEBHOOK_BACKOFF_MIN_MS: 5_000,
  QHORUS_WEBHOOK_BACKOFF_MAX_MS: 10 * 60 * 60 * 1000,
  QHORUS_WEBHOOK_GIVE_UP_MS: 24 * 60 * 60 * 1000,
  QHORUS_WEBHOOK_LEASE_MS: 30_000,
  QHORUS_WEBHOOK_POLL_MS: 1_000,
  QHORUS_WEBHOOK_CONCURRENCY: 16,
  QHORUS_WEBHOOK_MAX_RESPONSE_BYTES: 64 * 1024,
  QHORUS_WEBHOOK_LOG_KEEP: 100,
  QHORUS_MAX_WEBHOOKS_PER_AGENT: 100,
} as const;

/**
 * Settable for tests and for an operator chasing a measured problem, but not user knobs: batch
 * sizes of internal passes, lock and poll intervals, grace periods. docs/tuning.md lists each
 * (default, what it does, why it is not a user knob); .env.example and the README do not.
 */
export const TUNING_KNOBS = [
  'QHORUS_JOB_LOCK_MS',
  'QHORUS_JOB_STALLED_CHECK_MS',
  'QHORUS_SWEEP_BATCH',
  'QHORUS_SUMMARY_ABORT_GRACE_MS',
  'QHORUS_RATE_LIMIT_LEASE',
  'QHORUS_RETENTION_BATCH',
  'QHORUS_RETENTION_BATCH_MESSAGES',
  'QHORUS_EXPORT_PAGE_SIZE',
  'QHORUS_SEARCH_REINDEX_BATCH',
  'QHORUS_WEBHOOK_LEASE_MS',
  'QHORUS_WEBHOOK_POLL_MS',
] as const satisfies readonly (keyof typeof CONFIG_DEFAULTS)[];

/** Knobs without a default (unset is meaningful), read from the environment next to the defaulted ones. */
export const OPTIONAL_KNOBS = [
  'DATABASE_URL', 'REDIS_URL', 'QHORUS_ADMIN_TOKEN',
  'QHORUS_LLM_API_KEY', 'QHORUS_LLM_BASE_URL', 'QHORUS_LLM_MODEL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL',
  'QHORUS_RETENTION_MAX_AGE_DAYS',
] as const;

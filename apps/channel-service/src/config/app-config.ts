import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync, ValidationError } from 'class-validator';
import { SUMMARY_TEXT_MIN_CHARS } from '@qhorus/blocks-summarisation';
import {
  CONFIG_DEFAULTS,
  LLM_MODES,
  LOG_LEVELS,
  LogLevel,
  LONG_POLL_CEILING_MS,
  MAX_RETENTION_DAYS,
  MODEL_SUMMARISER_POLICIES,
  ModelSummariserPolicy,
  OPTIONAL_KNOBS,
  Role,
  ROLES,
} from './config-defaults';
import { llmModelFor, LLM_PROVIDERS, LlmProviderName, modelProviderProblem, ModelUrl } from './model-provider-config';
import { trustProxyError } from './trust-proxy';
import { parseWebhookAllowList } from './webhook-allowed-hosts';

/** A text-search configuration name, optionally schema-qualified (checked against the database at start-up). */
const SEARCH_CONFIG_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;
/** A snippet shorter than this could not show a match with a word either side. */
const SEARCH_SNIPPET_MIN_CHARS = 40;

/** The failure backoff of a channel's summary, in sweep intervals (see `summaryFailureBackoffMs`). */
export const SUMMARY_FAILURE_BACKOFF_SWEEP_INTERVALS = 12;

/** The longest delay Node.js timers take (2^31 − 1 ms, about 24.8 days); a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;
const TIMER_TOO_LONG = `$property must be at most ${MAX_TIMER_MS} (the longest timer Node.js can set, about 24.8 days)`;

const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value)) ? Number(value) : value;

/** A knob that feeds a timer, in ms: an integer from `min` to MAX_TIMER_MS (applied as `@Transform @IsInt @Max @Min` would be). */
function TimerMs(min: number): PropertyDecorator {
  // Bottom-up, as stacked decorators apply.
  const decorators = [Min(min), Max(MAX_TIMER_MS, { message: TIMER_TOO_LONG }), IsInt(), Transform(toInt)];
  return (target, key) => {
    for (const decorate of decorators) decorate(target, key);
  };
}
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/** The validated configuration. Built once from the environment by `loadConfig`. */
export class AppConfig {
  @Transform(toInt) @IsInt() @Min(0) @Max(65535) PORT: number = CONFIG_DEFAULTS.PORT;
  @IsString() HOST: string = CONFIG_DEFAULTS.HOST;
  /** Postgres URL; unset → embedded PGlite under QHORUS_DATA_DIR. */
  @Transform(emptyToUndefined) @IsOptional() @IsString() @Matches(/^postgres(ql)?:\/\//, { message: '$property must be a postgres:// (or postgresql://) URL' }) DATABASE_URL?: string;
  /** Redis URL; unset → jobs run in process. */
  @Transform(emptyToUndefined) @IsOptional() @IsString() @Matches(/^rediss?:\/\//, { message: '$property must be a redis:// (or rediss://) URL' }) REDIS_URL?: string;
  /** Unset → generated at first start and stored in the data dir. */
  @Transform(emptyToUndefined) @IsOptional() @IsString() @MinLength(16) QHORUS_ADMIN_TOKEN?: string;
  @IsString() QHORUS_DATA_DIR: string = CONFIG_DEFAULTS.QHORUS_DATA_DIR;
  @IsIn(ROLES) QHORUS_ROLE: Role = CONFIG_DEFAULTS.QHORUS_ROLE;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_SUMMARY_THRESHOLD: number = CONFIG_DEFAULTS.QHORUS_SUMMARY_THRESHOLD;
  @IsString() @MinLength(1) QHORUS_QUEUE_PREFIX: string = CONFIG_DEFAULTS.QHORUS_QUEUE_PREFIX;
  // Model provider (issue 31): the effective key, URL and model are `llmApiKey`, `llmBaseUrl`, `llmModel`.
  @IsIn(LLM_PROVIDERS) QHORUS_LLM_PROVIDER: LlmProviderName = CONFIG_DEFAULTS.QHORUS_LLM_PROVIDER;
  @Transform(emptyToUndefined) @IsOptional() @IsString() QHORUS_LLM_API_KEY?: string;
  @ModelUrl() QHORUS_LLM_BASE_URL?: string;
  @Transform(emptyToUndefined) @IsOptional() @IsString() ANTHROPIC_API_KEY?: string;
  @ModelUrl() ANTHROPIC_BASE_URL?: string;
  @Transform(emptyToUndefined) @IsOptional() @IsString() OPENAI_API_KEY?: string;
  @ModelUrl() OPENAI_BASE_URL?: string;
  /** Unset → the provider's default (DEFAULT_LLM_MODELS); set but blank → refused at start-up. */
  @IsOptional() @IsString() QHORUS_LLM_MODEL?: string;
  @IsIn(LLM_MODES) QHORUS_LLM_MODE: (typeof LLM_MODES)[number] = CONFIG_DEFAULTS.QHORUS_LLM_MODE;
  @TimerMs(1) QHORUS_LLM_TIMEOUT_MS: number = CONFIG_DEFAULTS.QHORUS_LLM_TIMEOUT_MS;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_LLM_MAX_TOKENS: number = CONFIG_DEFAULTS.QHORUS_LLM_MAX_TOKENS;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_TIERED_SMALL_MAX: number = CONFIG_DEFAULTS.QHORUS_TIERED_SMALL_MAX;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_TIERED_MEDIUM_MAX: number = CONFIG_DEFAULTS.QHORUS_TIERED_MEDIUM_MAX;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_SUMMARY_CHUNK_SIZE: number = CONFIG_DEFAULTS.QHORUS_SUMMARY_CHUNK_SIZE;
  @TimerMs(1) QHORUS_SUMMARY_TIMEOUT_MS: number = CONFIG_DEFAULTS.QHORUS_SUMMARY_TIMEOUT_MS;
  /**
   * After a summariser call timed out, how long the job waits for it to settle once aborted
   * (AbortSignal) before the job fails anyway: no retry overlaps a call that is still running.
   */
  @TimerMs(0) QHORUS_SUMMARY_ABORT_GRACE_MS: number = CONFIG_DEFAULTS.QHORUS_SUMMARY_ABORT_GRACE_MS;
  /** Summary versions kept per channel in the history (the newest; older ones are pruned at each commit). */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_SUMMARY_HISTORY_KEEP: number = CONFIG_DEFAULTS.QHORUS_SUMMARY_HISTORY_KEEP;
  /** The one cap on every summary text (every strategy, a custom one's and a manual override's), in characters. */
  @Transform(toInt) @IsInt() @Min(SUMMARY_TEXT_MIN_CHARS) QHORUS_SUMMARY_TEXT_MAX_CHARS: number = CONFIG_DEFAULTS.QHORUS_SUMMARY_TEXT_MAX_CHARS;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_JOB_ATTEMPTS: number = CONFIG_DEFAULTS.QHORUS_JOB_ATTEMPTS;
  @TimerMs(0) QHORUS_JOB_BACKOFF_MS: number = CONFIG_DEFAULTS.QHORUS_JOB_BACKOFF_MS;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_WORKER_CONCURRENCY: number = CONFIG_DEFAULTS.QHORUS_WORKER_CONCURRENCY;
  /** BullMQ lock per running job, renewed every half of it: a crashed worker's job is free again after this long. */
  @TimerMs(1000) QHORUS_JOB_LOCK_MS: number = CONFIG_DEFAULTS.QHORUS_JOB_LOCK_MS;
  /** How often workers move jobs whose lock expired back to waiting (takeover of a crashed job ≤ lock + 2 checks). */
  @TimerMs(100) QHORUS_JOB_STALLED_CHECK_MS: number = CONFIG_DEFAULTS.QHORUS_JOB_STALLED_CHECK_MS;
  @TimerMs(100) QHORUS_SWEEP_INTERVAL_MS: number = CONFIG_DEFAULTS.QHORUS_SWEEP_INTERVAL_MS;
  /** Most due channels one sweep round enqueues (the rest wait for the next round). */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_SWEEP_BATCH: number = CONFIG_DEFAULTS.QHORUS_SWEEP_BATCH;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_MAX_CONTENT_BYTES: number = CONFIG_DEFAULTS.QHORUS_MAX_CONTENT_BYTES;
  @Transform(toInt) @IsInt() @Min(1024) QHORUS_BODY_LIMIT_BYTES: number = CONFIG_DEFAULTS.QHORUS_BODY_LIMIT_BYTES;
  /** `POST …/messages/batch`: most messages in one batch (413 beyond). */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_BATCH_MAX_MESSAGES: number = CONFIG_DEFAULTS.QHORUS_BATCH_MAX_MESSAGES;
  /** `POST …/messages/batch`: its own body limit, in place of QHORUS_BODY_LIMIT_BYTES (413 beyond). */
  @Transform(toInt) @IsInt() @Min(1024) QHORUS_BATCH_BODY_LIMIT_BYTES: number = CONFIG_DEFAULTS.QHORUS_BATCH_BODY_LIMIT_BYTES;
  /** Deepest nesting of objects/arrays a JSON body may have (e.g. message metadata); deeper is a 400. */
  @Transform(toInt) @IsInt() @Min(2) QHORUS_JSON_MAX_DEPTH: number = CONFIG_DEFAULTS.QHORUS_JSON_MAX_DEPTH;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_PAGE_LIMIT_MAX: number = CONFIG_DEFAULTS.QHORUS_PAGE_LIMIT_MAX;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_PAGE_LIMIT_DEFAULT: number = CONFIG_DEFAULTS.QHORUS_PAGE_LIMIT_DEFAULT;
  /** Longest `waitMs` a long poll may ask for; below the 60 s an MCP client (and many proxies) wait by default. */
  @Transform(toInt) @IsInt() @Min(1) @Max(LONG_POLL_CEILING_MS) QHORUS_LONG_POLL_MAX_MS: number = CONFIG_DEFAULTS.QHORUS_LONG_POLL_MAX_MS;
  /** Concurrent long polls (REST waitMs, MCP wait_for_messages) one agent may hold on one instance; more is a 429. */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_LONG_POLL_MAX_PER_AGENT: number = CONFIG_DEFAULTS.QHORUS_LONG_POLL_MAX_PER_AGENT;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_RATE_LIMIT_PER_SECOND: number = CONFIG_DEFAULTS.QHORUS_RATE_LIMIT_PER_SECOND;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_RATE_LIMIT_BURST: number = CONFIG_DEFAULTS.QHORUS_RATE_LIMIT_BURST;
  /** With Redis: tokens an instance leases from an agent's shared bucket at a time (one Redis call per this many requests). */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_RATE_LIMIT_LEASE: number = CONFIG_DEFAULTS.QHORUS_RATE_LIMIT_LEASE;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_DB_POOL_SIZE: number = CONFIG_DEFAULTS.QHORUS_DB_POOL_SIZE;
  /** A query with no answer by then fails with a 503 (a partition leaves sockets open and silent). */
  @TimerMs(100) QHORUS_DB_QUERY_TIMEOUT_MS: number = CONFIG_DEFAULTS.QHORUS_DB_QUERY_TIMEOUT_MS;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_TOKEN_CACHE_SIZE: number = CONFIG_DEFAULTS.QHORUS_TOKEN_CACHE_SIZE;
  @TimerMs(0) QHORUS_TOKEN_CACHE_TTL_MS: number = CONFIG_DEFAULTS.QHORUS_TOKEN_CACHE_TTL_MS;
  /** Unknown tokens remembered (no database query for them again until the TTL passes). */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_AUTH_NEGATIVE_CACHE_SIZE: number = CONFIG_DEFAULTS.QHORUS_AUTH_NEGATIVE_CACHE_SIZE;
  @TimerMs(0) QHORUS_AUTH_NEGATIVE_CACHE_TTL_MS: number = CONFIG_DEFAULTS.QHORUS_AUTH_NEGATIVE_CACHE_TTL_MS;
  /** Failed authentications per client address: sustained rate and burst; 429 beyond. */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_AUTH_FAILURES_PER_SECOND: number = CONFIG_DEFAULTS.QHORUS_AUTH_FAILURES_PER_SECOND;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_AUTH_FAILURE_BURST: number = CONFIG_DEFAULTS.QHORUS_AUTH_FAILURE_BURST;
  /** Which peers' X-Forwarded-For is believed for the client address: `true`, `false`, a hop count, or addresses/CIDRs/presets (comma-separated). */
  @IsString() @MinLength(1) QHORUS_TRUST_PROXY: string = CONFIG_DEFAULTS.QHORUS_TRUST_PROXY;
  /** Host names (comma list; `*` for any) that /mcp accepts in `Host` and `Origin` besides the service's own addresses (DNS rebinding). */
  @IsString() @Matches(/^(\*|[^\s,]+(\s*,\s*[^\s,]+)*)?$/, { message: '$property must be a comma list of host names or addresses, or *' }) QHORUS_ALLOWED_HOSTS: string = CONFIG_DEFAULTS.QHORUS_ALLOWED_HOSTS;
  /** How often agents' last-seen times are written (in one batch), and at shutdown. */
  @TimerMs(100) QHORUS_LAST_SEEN_FLUSH_MS: number = CONFIG_DEFAULTS.QHORUS_LAST_SEEN_FLUSH_MS;
  /** Max size of a message's `metadata`, as JSON in UTF-8 bytes (413 above). */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_MAX_METADATA_BYTES: number = CONFIG_DEFAULTS.QHORUS_MAX_METADATA_BYTES;
  /** Channels one agent may create (403 above); the admin is not limited. */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_MAX_CHANNELS_PER_AGENT: number = CONFIG_DEFAULTS.QHORUS_MAX_CHANNELS_PER_AGENT;
  /** Event streams one agent may hold open on one instance (429 above); the admin is not limited. */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_MAX_SSE_STREAMS_PER_AGENT: number = CONFIG_DEFAULTS.QHORUS_MAX_SSE_STREAMS_PER_AGENT;
  @IsIn(MODEL_SUMMARISER_POLICIES) QHORUS_MODEL_SUMMARISER_POLICY: ModelSummariserPolicy = CONFIG_DEFAULTS.QHORUS_MODEL_SUMMARISER_POLICY;
  /** Lowest `summaryThreshold` a channel with a model-backed summariser may have. */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_MODEL_SUMMARY_MIN_THRESHOLD: number = CONFIG_DEFAULTS.QHORUS_MODEL_SUMMARY_MIN_THRESHOLD;
  /** Lowest `summaryThresholdTokens` such a channel may have (about what the lowest threshold's messages take). */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_MODEL_SUMMARY_MIN_TOKENS: number = CONFIG_DEFAULTS.QHORUS_MODEL_SUMMARY_MIN_TOKENS;
  /** Lowest `updateAfterSeconds` such a channel may have (a time trigger fires at most this often). */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_MODEL_SUMMARY_MIN_SECONDS: number = CONFIG_DEFAULTS.QHORUS_MODEL_SUMMARY_MIN_SECONDS;
  /** Per-channel budget: model calls per clock hour (UTC). */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_MODEL_CALLS_PER_HOUR: number = CONFIG_DEFAULTS.QHORUS_MODEL_CALLS_PER_HOUR;
  /** Per-channel budget: input + output tokens per UTC day. */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_MODEL_TOKENS_PER_DAY: number = CONFIG_DEFAULTS.QHORUS_MODEL_TOKENS_PER_DAY;
  @TimerMs(0) QHORUS_SHUTDOWN_TIMEOUT_MS: number = CONFIG_DEFAULTS.QHORUS_SHUTDOWN_TIMEOUT_MS;
  // --- Data lifecycle: retention and export (issue 29) ---
  /** `retention.maxAgeDays` of channels created without a `retention`; unset: kept for ever. */
  @Transform(toInt) @IsOptional() @IsInt() @Min(1) @Max(MAX_RETENTION_DAYS) QHORUS_RETENTION_MAX_AGE_DAYS?: number;
  /** How often the retention pass runs (on worker processes). */
  @TimerMs(100) QHORUS_RETENTION_SWEEP_MS: number = CONFIG_DEFAULTS.QHORUS_RETENTION_SWEEP_MS;
  /** Due channels one retention batch (one transaction) takes. */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_RETENTION_BATCH: number = CONFIG_DEFAULTS.QHORUS_RETENTION_BATCH;
  /** Messages one channel's step in a batch removes at most (more only when no summary version lies closer). */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_RETENTION_BATCH_MESSAGES: number = CONFIG_DEFAULTS.QHORUS_RETENTION_BATCH_MESSAGES;
  /** Messages an export reads per page (its memory is one page, whatever the channel's length). */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_EXPORT_PAGE_SIZE: number = CONFIG_DEFAULTS.QHORUS_EXPORT_PAGE_SIZE;
  // Data lifecycle (redaction, deletion; DESIGN §10)
  /** Longest reason a redaction takes (it is kept in the audit log and on the tombstone). */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_REDACTION_REASON_MAX_CHARS: number = CONFIG_DEFAULTS.QHORUS_REDACTION_REASON_MAX_CHARS;
  // Search (issue 32, DESIGN §12)
  /** Text-search configuration of the message index (`simple`: words as written, no stemming); changing it needs `npm run search:reindex`. Must exist in the database (checked at start-up). */
  @Matches(SEARCH_CONFIG_NAME, { message: '$property must be the name of a text search configuration, such as simple or english (optionally schema.name)' })
  QHORUS_SEARCH_CONFIG: string = CONFIG_DEFAULTS.QHORUS_SEARCH_CONFIG;
  /** Longest search `q`, in characters (400 beyond). */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_SEARCH_QUERY_MAX_CHARS: number = CONFIG_DEFAULTS.QHORUS_SEARCH_QUERY_MAX_CHARS;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_SEARCH_LIMIT_DEFAULT: number = CONFIG_DEFAULTS.QHORUS_SEARCH_LIMIT_DEFAULT;
  @Transform(toInt) @IsInt() @Min(1) QHORUS_SEARCH_LIMIT_MAX: number = CONFIG_DEFAULTS.QHORUS_SEARCH_LIMIT_MAX;
  /** Longest snippet in a search result, in characters (cut with an ellipsis beyond). */
  @Transform(toInt) @IsInt() @Min(SEARCH_SNIPPET_MIN_CHARS) QHORUS_SEARCH_SNIPPET_MAX_CHARS: number = CONFIG_DEFAULTS.QHORUS_SEARCH_SNIPPET_MAX_CHARS;
  /** Messages per batch when the index is filled or rebuilt (one short transaction each; posts are never held back). */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_SEARCH_REINDEX_BATCH: number = CONFIG_DEFAULTS.QHORUS_SEARCH_REINDEX_BATCH;
  @IsIn(LOG_LEVELS) LOG_LEVEL: LogLevel = CONFIG_DEFAULTS.LOG_LEVEL;

  // Webhooks (DESIGN §11, webhooks/)
  /** Hosts (by name) and addresses or CIDRs a webhook may reach although private, loopback or link-local (comma list). */
  @IsString() QHORUS_WEBHOOK_ALLOWED_HOSTS: string = CONFIG_DEFAULTS.QHORUS_WEBHOOK_ALLOWED_HOSTS;
  /** One delivery attempt, connection to the end of the (bounded) answer; longer is a failure, retried. */
  @TimerMs(1) QHORUS_WEBHOOK_TIMEOUT_MS: number = CONFIG_DEFAULTS.QHORUS_WEBHOOK_TIMEOUT_MS;
  /** Retry backoff: exponential from this, with jitter, up to QHORUS_WEBHOOK_BACKOFF_MAX_MS. */
  @TimerMs(1) QHORUS_WEBHOOK_BACKOFF_MIN_MS: number = CONFIG_DEFAULTS.QHORUS_WEBHOOK_BACKOFF_MIN_MS;
  @TimerMs(1) QHORUS_WEBHOOK_BACKOFF_MAX_MS: number = CONFIG_DEFAULTS.QHORUS_WEBHOOK_BACKOFF_MAX_MS;
  /** An event still failing this long after it was first due disables its hook (the reason is shown on GET). */
  @TimerMs(1) QHORUS_WEBHOOK_GIVE_UP_MS: number = CONFIG_DEFAULTS.QHORUS_WEBHOOK_GIVE_UP_MS;
  /** A claimed delivery is another worker's after this long (a worker killed mid-delivery): the takeover time. */
  @TimerMs(100) QHORUS_WEBHOOK_LEASE_MS: number = CONFIG_DEFAULTS.QHORUS_WEBHOOK_LEASE_MS;
  /** How often workers look for due deliveries and unread outbox rows without being woken. */
  @TimerMs(10) QHORUS_WEBHOOK_POLL_MS: number = CONFIG_DEFAULTS.QHORUS_WEBHOOK_POLL_MS;
  /** Deliveries in flight per worker process. */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_WEBHOOK_CONCURRENCY: number = CONFIG_DEFAULTS.QHORUS_WEBHOOK_CONCURRENCY;
  /** Most bytes of a receiver's answer read (then the connection is closed; the status still counts). */
  @Transform(toInt) @IsInt() @Min(0) QHORUS_WEBHOOK_MAX_RESPONSE_BYTES: number = CONFIG_DEFAULTS.QHORUS_WEBHOOK_MAX_RESPONSE_BYTES;
  /** Delivery attempts kept per hook (GET /webhooks/{id}/deliveries), the newest. */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_WEBHOOK_LOG_KEEP: number = CONFIG_DEFAULTS.QHORUS_WEBHOOK_LOG_KEEP;
  /** Webhooks one agent may have (403 above); the admin is not limited. */
  @Transform(toInt) @IsInt() @Min(1) QHORUS_MAX_WEBHOOKS_PER_AGENT: number = CONFIG_DEFAULTS.QHORUS_MAX_WEBHOOKS_PER_AGENT;

  get embeddedDatabase(): boolean {
    return !this.DATABASE_URL;
  }
  get inProcessQueue(): boolean {
    return !this.REDIS_URL;
  }
  /**
   * How long a channel whose summary job failed is left alone by every trigger but the job's own
   * retries and a manual refresh (SUMMARY_FAILURE_BACKOFF_SWEEP_INTERVALS sweep intervals).
   */
  get summaryFailureBackoffMs(): number {
    return this.QHORUS_SWEEP_INTERVAL_MS * SUMMARY_FAILURE_BACKOFF_SWEEP_INTERVALS;
  }
  get runsWorker(): boolean {
    return this.inProcessQueue || this.QHORUS_ROLE !== 'api';
  }
  /** The LLM tier's API key: QHORUS_LLM_API_KEY, else the chosen provider's own variable. */
  get llmApiKey(): string | undefined {
    return this.QHORUS_LLM_API_KEY ?? (this.QHORUS_LLM_PROVIDER === 'openai' ? this.OPENAI_API_KEY : this.ANTHROPIC_API_KEY);
  }
  /** The LLM tier's base URL: QHORUS_LLM_BASE_URL, else the chosen provider's own variable (unset: the SDK's default). */
  get llmBaseUrl(): string | undefined {
    return this.QHORUS_LLM_BASE_URL ?? (this.QHORUS_LLM_PROVIDER === 'openai' ? this.OPENAI_BASE_URL : this.ANTHROPIC_BASE_URL);
  }
  /** The model: QHORUS_LLM_MODEL, else the chosen provider's default. */
  get llmModel(): string {
    return llmModelFor(this.QHORUS_LLM_PROVIDER, this.QHORUS_LLM_MODEL);
  }
}

export class ConfigValidationError extends Error {}


/** Reads the knobs from an environment map, applies defaults, and fails fast naming every bad one. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const known = Object.keys(new AppConfig());
  const raw: Record<string, string> = {};
  for (const key of [...known, ...OPTIONAL_KNOBS]) {
    const value = env[key];
    // `NAME=` (as .env.example writes unset knobs) means unset: the default, not an empty value.
    if (value !== undefined && value.trim() !== '') raw[key] = value;
  }
  // A model name set but blank is a mistake, not "unset": `QHORUS_LLM_MODEL=` (empty) stays the default.
  if (env.QHORUS_LLM_MODEL !== undefined && env.QHORUS_LLM_MODEL !== '' && env.QHORUS_LLM_MODEL.trim() === '') raw.QHORUS_LLM_MODEL = env.QHORUS_LLM_MODEL;
  const config = plainToInstance(AppConfig, raw, { exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false });
  if (errors.length > 0) throw new ConfigValidationError(describeInvalidSettings(errors));
  if (config.QHORUS_SEARCH_LIMIT_DEFAULT > config.QHORUS_SEARCH_LIMIT_MAX) {
    throw new ConfigValidationError('Invalid configuration: QHORUS_SEARCH_LIMIT_DEFAULT must be ≤ QHORUS_SEARCH_LIMIT_MAX');
  }
  if (config.QHORUS_TIERED_MEDIUM_MAX < config.QHORUS_TIERED_SMALL_MAX) {
    throw new ConfigValidationError('Invalid configuration: QHORUS_TIERED_MEDIUM_MAX must be ≥ QHORUS_TIERED_SMALL_MAX');
  }
  const providerProblem = modelProviderProblem(config);
  if (providerProblem) throw new ConfigValidationError(`Invalid configuration: ${providerProblem}`);
  // A hanging model must time out inside the job, so `tiered` can still fall back to its heuristic tier.
  if (config.llmApiKey && config.QHORUS_LLM_TIMEOUT_MS >= config.QHORUS_SUMMARY_TIMEOUT_MS) {
    throw new ConfigValidationError('Invalid configuration: QHORUS_LLM_TIMEOUT_MS must be < QHORUS_SUMMARY_TIMEOUT_MS when an LLM API key is set (QHORUS_LLM_API_KEY, ANTHROPIC_API_KEY or OPENAI_API_KEY)');
  }
  checkWebhookConfig(config);
  const trustProxyProblem = trustProxyError(config.QHORUS_TRUST_PROXY);
  if (trustProxyProblem) throw new ConfigValidationError(`Invalid configuration: QHORUS_TRUST_PROXY ${trustProxyProblem}`);
  return config;
}

/**
 * One bad setting is one line (`Invalid configuration: PORT: PORT must be an integer number`);
 * several are listed, one line each. Each leads with the setting's name.
 */
function describeInvalidSettings(errors: readonly ValidationError[]): string {
  const lines = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
  return lines.length === 1 ? `Invalid configuration: ${lines[0]}` : `Invalid configuration:\n  ${lines.join('\n  ')}`;
}

/** The webhook knobs that depend on each other, and the allow list (webhooks/). */
function checkWebhookConfig(config: AppConfig): void {
  try {
    parseWebhookAllowList(config.QHORUS_WEBHOOK_ALLOWED_HOSTS);
  } catch (e) {
    throw new ConfigValidationError(`Invalid configuration: QHORUS_WEBHOOK_ALLOWED_HOSTS ${(e as Error).message}`);
  }
  // A lease shorter than an attempt would hand a delivery still in flight to a second worker.
  if (config.QHORUS_WEBHOOK_LEASE_MS <= config.QHORUS_WEBHOOK_TIMEOUT_MS) {
    throw new ConfigValidationError('Invalid configuration: QHORUS_WEBHOOK_LEASE_MS must be > QHORUS_WEBHOOK_TIMEOUT_MS');
  }
  if (config.QHORUS_WEBHOOK_BACKOFF_MAX_MS < config.QHORUS_WEBHOOK_BACKOFF_MIN_MS) {
    throw new ConfigValidationError('Invalid configuration: QHORUS_WEBHOOK_BACKOFF_MAX_MS must be ≥ QHORUS_WEBHOOK_BACKOFF_MIN_MS');
  }
}

import { randomUUID } from 'node:crypto';
import createClient, { Client } from 'openapi-fetch';
import { backoffDelay, sleep } from './backoff';
import { channelEvents, ChannelEvent, EventStreamOptions } from './event-stream';
import type { components, operations, paths } from './generated/openapi';
import { OperationId, OPERATIONS } from './generated/operations';
import type { CallArgs, OperationResult } from './operation-types';
import { AnthropicMessage, ContextResponse, OpenAIChatMessage, toAnthropicMessages, toOpenAIMessages } from './provider-messages';
import { QhorusError } from './qhorus-error';
import { ndjsonLines } from './ndjson-lines';

type Schemas = components['schemas'];
/** A channel as GET /channels answers it to its reader: with the caller's `readThroughSeq` and `unread`. */
export type Channel = Schemas['ReaderChannelResponse'];
export type ReadCursor = Schemas['ReadCursorResponse'];
export type Message = Schemas['MessageResponse'];
export type Summary = Schemas['SummaryResponse'];
export type PostMessage = Schemas['PostMessageDto'];
export type CreateChannel = Schemas['CreateChannelDto'];
export type CreateWebhook = Schemas['CreateWebhookDto'];
export type Webhook = Schemas['WebhookResponse'];
export type WebhookAttempt = Schemas['WebhookAttemptResponse'];
export type SearchResult = Schemas['SearchResultResponse'];
export type SearchPage = Schemas['SearchResponse'];
type Query<K extends OperationId> = NonNullable<CallArgs<K>['query']>;

/** One line of `GET /channels/{name}/export`: the channel first, then each kept message, then the summary. */
export type ExportLine =
  | ({ kind: 'channel' } & Schemas['ChannelResponse'])
  | ({ kind: 'message' } & Message)
  | ({ kind: 'summary' } & Summary);

export interface QhorusClientOptions {
  /** The service's root URL, e.g. http://localhost:3000 (the /api/v1 prefix is in the paths). */
  baseUrl: string;
  /** The admin token or an agent's token. */
  token?: string;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
  /** How often a post is tried when the service is unreachable, busy (429) or failing (5xx). */
  postAttempts?: number;
  /** First retry delay of a post; doubles per attempt (with jitter) up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /**
   * How long a call waits for its answer before failing as unreachable (a server that accepts
   * the connection and never answers). A long poll waits its `waitMs` on top of this.
   */
  timeoutMs?: number;
}

export const DEFAULT_POST_ATTEMPTS = 4;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRY_DELAY_MS = 200;
export const DEFAULT_MAX_RETRY_DELAY_MS = 5_000;
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const HTTP_NOT_MODIFIED = 304;

export type InboxItem = Schemas['InboxItemResponse'];

export interface WaitForInboxOptions {
  /** The ETag of the inbox last seen: wait until the inbox is not that one. */
  etag?: string;
  /** How long the service holds the request open (at most its QHORUS_LONG_POLL_MAX_MS, 30 s by default: more is a 400). */
  waitMs: number;
  limit?: number;
  signal?: AbortSignal;
}

/** What an inbox long poll saw: the changed inbox (a page, the whole count, its tag), or no change in time. */
export interface InboxChange {
  changed: boolean;
  items: InboxItem[];
  total: number;
  etag?: string;
}

/** Long-poll filters and bounds (DESIGN §6: `GET …/messages?afterSeq=&waitMs=`). */
export interface WaitForMessagesOptions {
  afterSeq: number;
  /** How long the service holds the request open when nothing new is there (at most its QHORUS_LONG_POLL_MAX_MS, 30 s by default: more is a 400). */
  waitMs: number;
  includeEvents?: boolean;
  /** Only these types (sent as a comma list). */
  type?: string[];
  topic?: string;
  sender?: string;
  correlationId?: string;
  target?: string;
  limit?: number;
  signal?: AbortSignal;
}

/**
 * A typed client of the Qhorus HTTP API. Every operation of the OpenAPI document is callable by
 * its operationId through `call` (types and the route table are generated from the document:
 * `npm run client:generate`), and the named methods cover them with friendlier signatures.
 * Every failure is a `QhorusError`.
 */
export class QhorusClient {
  /** The underlying openapi-fetch client, typed by path, for anything the methods do not cover. */
  readonly api: Client<paths>;
  private readonly fetchImpl: typeof fetch;
  private readonly baseUrl: string;
  private readonly token?: string;
  private readonly postAttempts: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;
  private readonly timeoutMs: number;

  constructor(options: QhorusClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.postAttempts = options.postAttempts ?? DEFAULT_POST_ATTEMPTS;
    this.retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.api = createClient<paths>({ baseUrl: this.baseUrl, fetch: (request) => this.fetchImpl(request), headers: this.authHeaders() });
  }

  /** Calls one operation by its operationId; answers its 2xx body, or throws a QhorusError. */
  async call<K extends OperationId>(id: K, args: CallArgs<K> = {}): Promise<OperationResult<K>> {
    return (await this.exchange(id, args)).data;
  }

  /** As `call`, with the answer's headers; a 304 is an answer too when `notModified` allows it (its data is then undefined). */
  private async exchange<K extends OperationId>(id: K, args: CallArgs<K>, notModified = false): Promise<{ data: OperationResult<K>; response: Response }> {
    const op = OPERATIONS[id];
    const pathParams = (args.path ?? {}) as Record<string, string>;
    const described = `${op.method} ${this.baseUrl}${op.path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(pathParams[k] ?? `{${k}}`))}`;
    const timeout = AbortSignal.timeout(args.timeoutMs ?? this.timeoutMs);
    // Set once an answer arrived: a failure after it is an answer that could not be read, not an unreachable service.
    let answered: Response | undefined;
    const init = {
      params: { path: args.path, query: args.query },
      body: args.body,
      headers: args.headers,
      signal: args.signal ? AbortSignal.any([args.signal, timeout]) : timeout,
      parseAs: op.produces === 'text/plain' ? 'text' : 'json',
      fetch: async (request: Request) => (answered = await this.fetchImpl(request)),
    };
    let result: { data?: unknown; error?: unknown; response: Response };
    try {
      // The route table and CallArgs type the call by operationId; openapi-fetch types it by path.
      const request = this.api.request as unknown as (method: string, path: string, init: unknown) => Promise<typeof result>;
      result = await request(op.method.toLowerCase(), op.path, init);
    } catch (err) {
      if (answered && !timeout.aborted && !args.signal?.aborted) throw QhorusError.unreadable(described, answered, err);
      throw QhorusError.unreachable(described, timeout.aborted ? new Error(`no answer within ${args.timeoutMs ?? this.timeoutMs} ms`) : err);
    }
    const { response } = result;
    const accepted = response.ok || (notModified && response.status === HTTP_NOT_MODIFIED);
    if (!accepted) throw QhorusError.fromAnswer(response.status, response.statusText, result.error, described, response.headers.get('retry-after'));
    return { data: result.data as OperationResult<K>, response };
  }

  /**
   * The operation serving `method path` (a path template such as `/api/v1/inbox`), if the
   * document this client was generated from has it: for routes newer than some services.
   */
  static operationFor(method: string, path: string): OperationId | undefined {
    return QhorusClient.operations().find((id) => OPERATIONS[id].method === method.toUpperCase() && OPERATIONS[id].path === path);
  }

  /** The operationIds this client can call (those of the document it was generated from). */
  static operations(): OperationId[] {
    return Object.keys(OPERATIONS) as OperationId[];
  }

  // Agents
  registerAgent(name: string) {
    return this.call('AgentsController_register', { body: { name } });
  }
  listAgents() {
    return this.call('AgentsController_list');
  }
  /** Admin: revokes an agent; its token stops working at once on every instance. `erase: true` also redacts every message it sent. */
  revokeAgent(name: string, query: Query<'AgentsController_revoke'> = {}) {
    return this.call('AgentsController_revoke', { path: { name }, query });
  }
  /** Admin: a new token for an agent (shown this once); the old one stops working at once. */
  rotateAgentToken(name: string) {
    return this.call('AgentsController_rotate', { path: { name } });
  }

  // Channels
  createChannel(channel: CreateChannel) {
    return this.call('ChannelsController_create', { body: channel });
  }
  /** The channels the caller may read; archived ones only with `{ archived: true }`. */
  listChannels(query: Query<'ChannelsController_list'> = {}) {
    return this.call('ChannelsController_list', { query });
  }
  getChannel(name: string) {
    return this.call('ChannelsController_get', { path: { name } });
  }
  updateChannel(name: string, changes: Schemas['UpdateChannelDto']) {
    return this.call('ChannelsController_update', { path: { name }, body: changes });
  }
  /** Moves the caller's read cursor to `throughSeq` (never back: a lower one answers the current cursor). */
  markRead(name: string, throughSeq: number): Promise<ReadCursor> {
    return this.call('ChannelsController_markRead', { path: { name }, body: { throughSeq } });
  }

  // Data lifecycle: archive and export (DESIGN §10)
  /** Makes the channel read-only and stops its summary jobs (the creator or the admin). */
  archiveChannel(name: string) {
    return this.call('ChannelArchiveController_archiveChannel', { path: { name } });
  }
  unarchiveChannel(name: string) {
    return this.call('ChannelArchiveController_unarchiveChannel', { path: { name } });
  }
  /**
   * The channel as its export streams it: the channel line, each kept message (a redacted one as
   * a tombstone), then the current summary, parsed line by line as they arrive (memory stays one
   * line, whatever the channel's length). Stopping the iteration early ends the download.
   */
  async *exportChannel(name: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<ExportLine> {
    const path = OPERATIONS.ExportController_export.path.replace('{name}', encodeURIComponent(name));
    const described = `GET ${this.baseUrl}${path}`;
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.baseUrl}${path}`, { headers: this.authHeaders(), signal: options.signal });
    } catch (err) {
      throw QhorusError.unreachable(described, err);
    }
    if (!response.ok || !response.body) {
      const body = await response.json().catch(() => undefined);
      throw QhorusError.fromAnswer(response.status, response.statusText, body, described, response.headers.get('retry-after'));
    }
    yield* ndjsonLines<ExportLine>(response.body);
  }

  // Messages
  /**
   * Posts a message, retried safely: one Idempotency-Key (yours, or a generated one) for every
   * attempt, so a post whose answer was lost is never stored twice. Retries when the service is
   * unreachable, answers 429 (after its Retry-After) or 5xx; any other error is thrown at once.
   */
  async postMessage(channel: string, message: PostMessage, options: { idempotencyKey?: string; signal?: AbortSignal } = {}): Promise<Message> {
    const headers = { [IDEMPOTENCY_HEADER]: options.idempotencyKey ?? randomUUID() };
    return this.retried(options.signal, () => this.call('MessagesController_post', { path: { name: channel }, body: message, headers, signal: options.signal }));
  }

  /** Runs a keyed (so repeatable) request, again when the service is unreachable, busy or failing. */
  private async retried<T>(signal: AbortSignal | undefined, attemptOnce: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await attemptOnce();
      } catch (err) {
        const last = attempt + 1 >= this.postAttempts || signal?.aborted;
        if (!(err instanceof QhorusError) || !err.retryable || last) throw err;
        await sleep(err.retryAfterMs ?? backoffDelay(attempt, this.retryDelayMs, this.maxRetryDelayMs), signal);
      }
    }
  }
  /**
   * Posts several messages at once (consecutive seqs, all or nothing), retried like `postMessage`:
   * one Idempotency-Key for every attempt (message i is keyed `<key>:<i>` by the service).
   */
  async postBatch(channel: string, messages: PostMessage[], options: { idempotencyKey?: string; signal?: AbortSignal } = {}): Promise<Message[]> {
    const headers = { [IDEMPOTENCY_HEADER]: options.idempotencyKey ?? randomUUID() };
    return this.retried(options.signal, async () => (await this.call('MessagesController_postBatch', { path: { name: channel }, body: { messages }, headers, signal: options.signal })).messages);
  }
  listMessages(channel: string, query: Query<'MessagesController_list'> = {}) {
    return this.call('MessagesController_list', { path: { name: channel }, query });
  }
  /**
   * Long poll: answers as soon as a message after `afterSeq` exists (matching the filters), or
   * an empty page when `waitMs` passes with none.
   */
  async waitForMessages(channel: string, options: WaitForMessagesOptions): Promise<Message[]> {
    const { signal, type, ...rest } = options;
    const query = { ...rest, ...(type ? { type: type.join(',') } : {}) } as Query<'MessagesController_list'>;
    return this.call('MessagesController_list', { path: { name: channel }, query, signal, timeoutMs: options.waitMs + this.timeoutMs });
  }

  // Summary
  getSummary(channel: string) {
    return this.call('SummaryController_get', { path: { name: channel } });
  }
  refreshSummary(channel: string) {
    return this.call('SummaryController_refresh', { path: { name: channel } });
  }
  overrideSummary(channel: string, override: Schemas['OverrideSummaryDto']) {
    return this.call('SummaryController_override', { path: { name: channel }, body: override });
  }
  summaryHistory(channel: string, query: Query<'SummaryController_history'> = {}) {
    return this.call('SummaryController_history', { path: { name: channel }, query });
  }
  listThreads(channel: string, query: Query<'ThreadsController_list'> = {}) {
    return this.call('ThreadsController_list', { path: { name: channel }, query });
  }
  getThread(channel: string, correlationId: string, query: Query<'ThreadsController_get'> = {}) {
    return this.call('ThreadsController_get', { path: { name: channel, correlationId }, query });
  }
  /** The caller's open obligations across every channel it may read, oldest first. */
  inbox(query: Query<'InboxController_inbox'> = {}) {
    return this.call('InboxController_inbox', { query });
  }
  /**
   * Long poll on the inbox: answers as soon as it differs from the one `etag` names (an empty
   * inbox without one), or `{changed: false}` when `waitMs` passes with it unchanged. Pass the
   * answer's `etag` to the next call to wait for the next change.
   */
  async waitForInbox(options: WaitForInboxOptions): Promise<InboxChange> {
    const { etag, waitMs, limit, signal } = options;
    const headers = etag ? { 'if-none-match': etag } : undefined;
    const { data, response } = await this.exchange('InboxController_inbox', { query: { waitMs, limit }, headers, signal, timeoutMs: waitMs + this.timeoutMs }, true);
    const tag = response.headers.get('etag') ?? undefined;
    if (response.status === HTTP_NOT_MODIFIED) return { changed: false, items: [], total: 0, etag: tag ?? etag };
    const total = Number(response.headers.get('x-total-count') ?? data.length);
    return { changed: true, items: data, total, etag: tag };
  }

  /**
   * Full-text search over every channel the caller may read (or `channel`), best first:
   * `q` in web-search syntax ("a phrase", `or`, `-word`). Page with `cursor: page.nextCursor`.
   */
  search(q: string, query: Omit<Query<'SearchController_search'>, 'q'> = {}): Promise<SearchPage> {
    return this.call('SearchController_search', { query: { ...query, q } });
  }
  threadSummary(channel: string, correlationId: string) {
    return this.call('ThreadsController_summary', { path: { name: channel, correlationId } });
  }

  // Data lifecycle (DESIGN §10)
  /** Redacts a message (the sender, the channel's creator or the admin); answers the tombstone. */
  redactMessage(channel: string, seq: number, reason: string) {
    return this.call('LifecycleController_redact', { path: { name: channel, seq }, body: { reason } });
  }
  /** Drops every summary version (the base included) and summarises the kept messages from empty. */
  rebuildSummary(channel: string) {
    return this.call('LifecycleController_rebuild', { path: { name: channel } });
  }
  /** Deletes the channel and everything derived from it (the creator or the admin). */
  deleteChannel(channel: string) {
    return this.call('LifecycleController_remove', { path: { name: channel } });
  }
  /** Admin: the audit log of lifecycle operations, oldest first, after an entry id. */
  audit(query: Query<'AuditController_list'> = {}) {
    return this.call('AuditController_list', { query });
  }
  // Webhooks (an agent manages its own; the admin every one)
  /** Subscribes the caller; the answer carries the signing secret (`whsec_…`), shown this once. */
  createWebhook(webhook: CreateWebhook) {
    return this.call('WebhooksController_create', { body: webhook });
  }
  listWebhooks() {
    return this.call('WebhooksController_list');
  }
  getWebhook(id: string) {
    return this.call('WebhooksController_get', { path: { id } });
  }
  deleteWebhook(id: string) {
    return this.call('WebhooksController_delete', { path: { id } });
  }
  /** Queues a signed `webhook.test` event for the hook; its webhook-id comes back. */
  testWebhook(id: string) {
    return this.call('WebhooksController_test', { path: { id } });
  }
  /** The newest delivery attempts, newest first. */
  webhookDeliveries(id: string, query: Query<'WebhooksController_deliveries'> = {}) {
    return this.call('WebhooksController_deliveries', { path: { id }, query });
  }

  // Context projection
  context(channel: string, query: Query<'ProjectionController_context'> = {}): Promise<ContextResponse> {
    return this.call('ProjectionController_context', { path: { name: channel }, query });
  }
  /** The projection as Anthropic SDK messages, ready for `messages.create`. */
  async anthropicContext(channel: string, query: Omit<Query<'ProjectionController_context'>, 'format'> = {}): Promise<Omit<ContextResponse, 'messages'> & { messages: AnthropicMessage[] }> {
    const context = await this.context(channel, { ...query, format: 'anthropic' });
    return { ...context, messages: toAnthropicMessages(context) };
  }
  /** The projection as OpenAI Chat Completions messages. */
  async openaiContext(channel: string, query: Omit<Query<'ProjectionController_context'>, 'format'> = {}): Promise<Omit<ContextResponse, 'messages'> & { messages: OpenAIChatMessage[] }> {
    const context = await this.context(channel, { ...query, format: 'openai' });
    return { ...context, messages: toOpenAIMessages(context) };
  }

  // Live events
  /** The channel's events, reconnecting with Last-Event-ID replay (see `channelEvents`). */
  events(channel: string, options: EventStreamOptions = {}): AsyncGenerator<ChannelEvent> {
    const path = OPERATIONS.EventsController_stream.path.replace('{name}', encodeURIComponent(channel));
    const url = `${this.baseUrl}${path}${options.includeEvents ? '?includeEvents=true' : ''}`;
    return channelEvents({ url, headers: this.authHeaders(), fetch: this.fetchImpl }, options);
  }

  // Operations
  health() {
    return this.call('HealthController_ready');
  }
  live() {
    return this.call('HealthController_live');
  }
  metrics() {
    return this.call('MetricsController_scrape');
  }
  /** One MCP JSON-RPC request (stateless). For real MCP use, prefer an MCP client on `${baseUrl}/mcp`. */
  async mcp(request: { jsonrpc: '2.0'; id: string | number; method: string; params?: Record<string, unknown> }): Promise<Schemas['JsonRpcResponse']> {
    // A request with an id is always answered (200); only a notification gets the bodiless 202.
    return (await this.call('McpController_handle', { body: request as never, headers: { accept: 'application/json, text/event-stream' } })) as Schemas['JsonRpcResponse'];
  }

  private authHeaders(): Record<string, string> {
    return this.token ? { authorization: `Bearer ${this.token}` } : {};
  }
}

export type { operations };

/** The API's error body (DESIGN §6): `{statusCode, error, message, details?}`. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  details?: unknown;
}

/**
 * The one error the client throws. An HTTP answer that is not 2xx carries the API's own
 * `{statusCode, error, message, details}`; a service that cannot be reached at all has
 * `statusCode` 0 and `error` 'Unreachable' (the cause says why: refused, DNS, timeout).
 */
export class QhorusError extends Error implements ApiErrorBody {
  override readonly name = 'QhorusError';
  readonly statusCode: number;
  readonly error: string;
  readonly details?: unknown;
  /** The method and URL that failed. */
  readonly request: string;
  /** Retry-After in milliseconds, when the service sent one (429, 503). */
  readonly retryAfterMs?: number;

  constructor(body: ApiErrorBody, request: string, options: { cause?: unknown; retryAfterMs?: number } = {}) {
    super(body.message, { cause: options.cause });
    this.statusCode = body.statusCode;
    this.error = body.error;
    this.details = body.details;
    this.request = request;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** True when nothing answered (wrong URL, service down). */
  get unreachable(): boolean {
    return this.statusCode === 0;
  }

  /** Worth retrying: unreachable, 429, or a 5xx. */
  get retryable(): boolean {
    return this.statusCode === 0 || this.statusCode === 429 || this.statusCode >= 500;
  }

  /** The error of a non-2xx answer, whatever its body (a proxy's HTML page becomes the message). */
  static fromAnswer(status: number, statusText: string, body: unknown, request: string, retryAfter: string | null): QhorusError {
    const retryAfterMs = parseRetryAfter(retryAfter);
    if (isApiErrorBody(body)) return new QhorusError(body, request, { retryAfterMs });
    const message = typeof body === 'string' && body.trim() ? foreignMessage(body, `${status} ${statusText}`.trim()) : `${status} ${statusText}`.trim();
    return new QhorusError({ statusCode: status, error: statusText || 'Error', message }, request, { retryAfterMs });
  }

  /**
   * An answer whose body could not be read as the API's JSON (a 2xx from something else at that
   * URL): not retried, since it was answered. `statusCode` is the answer's status.
   */
  static unreadable(request: string, response: Response, cause: unknown): QhorusError {
    const type = response.headers.get('content-type') ?? 'no content type';
    const message = `${request.replace(/^\S+ /, '')} answered ${response.status} with a body that is not the API's JSON (${type}): is it a Qhorus service? (${describeCause(cause)})`;
    return new QhorusError({ statusCode: response.status, error: 'Unreadable Answer', message }, request, { cause });
  }

  static unreachable(request: string, cause: unknown): QhorusError {
    const reason = describeCause(cause);
    return new QhorusError({ statusCode: 0, error: 'Unreachable', message: `cannot reach ${request.replace(/^\S+ /, '')}: ${reason}` }, request, { cause });
  }
}

/** How much of a foreign (non-API) error body becomes the message. */
const MAX_FOREIGN_MESSAGE = 200;

/** A foreign error body as one line: an HTML page (a proxy's, another server's) is named, not shown; other text gives its first line. */
function foreignMessage(body: string, status: string): string {
  const text = body.trim();
  if (text.startsWith('<')) return `${status} (an HTML page, not the API's JSON)`;
  const firstLine = text.split('\n', 1)[0].trim();
  return firstLine.slice(0, MAX_FOREIGN_MESSAGE);
}
const MS_PER_SECOND = 1000;

function isApiErrorBody(body: unknown): body is ApiErrorBody {
  const b = body as Partial<ApiErrorBody> | null;
  return typeof b === 'object' && b !== null && typeof b.statusCode === 'number' && typeof b.message === 'string' && typeof b.error === 'string';
}

function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * MS_PER_SECOND);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** fetch's TypeError hides the reason in `cause` (ECONNREFUSED, ENOTFOUND, …). */
function describeCause(cause: unknown): string {
  const inner = (cause as { cause?: { code?: string; message?: string } })?.cause;
  if (inner?.code) return inner.code;
  if (inner?.message) return inner.message;
  return cause instanceof Error ? cause.message : String(cause);
}

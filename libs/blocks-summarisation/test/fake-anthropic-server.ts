import { createServer, IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A minimal local stand-in for the Anthropic Messages API (POST /v1/messages), for tests that
 * drive the real `@anthropic-ai/sdk` client: `new Anthropic({ apiKey: 'test', baseURL })`.
 * Each request is recorded (with its parsed JSON body) before the handler answers it.
 */

export interface FakeAnthropicRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body (`null` if the body is not JSON). */
  readonly body: any;
  readonly rawBody: string;
  /**
   * Settles when the exchange ends: the answer was sent, or the client went away first (an
   * aborted request). With a `hang` reply only the client's abort (or close()) settles it.
   */
  readonly closed: Promise<void>;
}

export type FakeAnthropicReply =
  /** A normal assistant message with one text block (`text` may be blank). */
  | { readonly kind: 'text'; readonly text: string; readonly model?: string; readonly stopReason?: string }
  /** An API error with this HTTP status, in the API's error envelope. */
  | { readonly kind: 'error'; readonly status: number; readonly errorType?: string; readonly message?: string }
  /** Never answer (until the server is closed): for timeout tests. */
  | { readonly kind: 'hang' };

/** A plain string is shorthand for `replyText(string)`. `index` counts requests from 0. */
export type FakeAnthropicHandler = (
  request: FakeAnthropicRequest,
  index: number,
) => FakeAnthropicReply | string | Promise<FakeAnthropicReply | string>;

export interface FakeAnthropic {
  /** Pass as `baseURL` to the SDK client. */
  readonly baseURL: string;
  /** Every request received, in arrival order. */
  readonly requests: FakeAnthropicRequest[];
  /** Closes the server and every open connection, including hanging ones. Idempotent. */
  close(): Promise<void>;
}

export const FAKE_ANTHROPIC_DEFAULT_TEXT = 'Fake summary.';
export const FAKE_ANTHROPIC_MESSAGES_PATH = '/v1/messages';
/** Usage numbers are not under test; fixed, plausible values keep the response well-formed. */
const FAKE_INPUT_TOKENS = 10;
const FAKE_OUTPUT_TOKENS = 5;
const HTTP_OK = 200;
const HTTP_NOT_FOUND = 404;
const HTTP_INTERNAL_ERROR = 500;

export const replyText = (text: string, extra: { model?: string; stopReason?: string } = {}): FakeAnthropicReply => ({
  kind: 'text',
  text,
  ...extra,
});
export const replyError = (status: number, message = 'fake server error', errorType = 'api_error'): FakeAnthropicReply => ({
  kind: 'error',
  status,
  message,
  errorType,
});
export const replyHang = (): FakeAnthropicReply => ({ kind: 'hang' });

export async function startFakeAnthropic(handler: FakeAnthropicHandler = () => FAKE_ANTHROPIC_DEFAULT_TEXT): Promise<FakeAnthropic> {
  const requests: FakeAnthropicRequest[] = [];
  let counter = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      sendJson(res, HTTP_INTERNAL_ERROR, errorEnvelope('api_error', `fake handler threw: ${String(error)}`));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'POST' || path !== FAKE_ANTHROPIC_MESSAGES_PATH) {
      sendJson(res, HTTP_NOT_FOUND, errorEnvelope('not_found_error', `no fake route for ${req.method} ${path}`));
      return;
    }
    const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
    const request: FakeAnthropicRequest = { method: req.method, path, headers: req.headers, body: parseJson(rawBody), rawBody, closed };
    requests.push(request);
    const index = counter++;
    const answer = await handler(request, index);
    const reply = typeof answer === 'string' ? replyText(answer) : answer;
    switch (reply.kind) {
      case 'hang':
        return; // the connection stays open until close()
      case 'error':
        sendJson(res, reply.status, errorEnvelope(reply.errorType ?? 'api_error', reply.message ?? 'fake server error'));
        return;
      case 'text':
        sendJson(res, HTTP_OK, {
          id: `msg_fake_${index}`,
          type: 'message',
          role: 'assistant',
          model: reply.model ?? request.body?.model ?? 'fake-model',
          content: [{ type: 'text', text: reply.text, citations: null }],
          stop_reason: reply.stopReason ?? 'end_turn',
          stop_sequence: null,
          stop_details: null,
          container: null,
          diagnostics: null,
          usage: { input_tokens: FAKE_INPUT_TOKENS, output_tokens: FAKE_OUTPUT_TOKENS },
        });
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    close: () => {
      // Idempotent, so an afterEach may close a server a test already closed.
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Hanging and keep-alive connections would otherwise keep close() (and jest) waiting.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function errorEnvelope(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    'request-id': `req_fake_${Date.now()}`,
  });
  res.end(payload);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(raw: string): any {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

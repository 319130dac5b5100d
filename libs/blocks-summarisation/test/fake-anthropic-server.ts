import { RecordedRequest, sendJson, startFakeJsonServer } from './fake-json-server';

/**
 * A minimal local stand-in for the Anthropic Messages API (POST /v1/messages), for tests that
 * drive the real `@anthropic-ai/sdk` client: `new Anthropic({ apiKey: 'test', baseURL })`.
 * Each request is recorded (with its parsed JSON body) before the handler answers it.
 */

/** A request as the fake received it (see RecordedRequest: `closed` settles when the exchange ends). */
export type FakeAnthropicRequest = RecordedRequest;

export type FakeAnthropicReply =
  /** A normal assistant message with one text block (`text` may be blank). */
  | { readonly kind: 'text'; readonly text: string; readonly model?: string; readonly stopReason?: string | null }
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

/** `stopReason` null: the answer names none (some OpenAI-compatible servers send no finish reason). */
export const replyText = (text: string, extra: { model?: string; stopReason?: string | null } = {}): FakeAnthropicReply => ({
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
  const headers = () => ({ 'request-id': `req_fake_${Date.now()}` });

  const server = await startFakeJsonServer(
    async (_req, res, request) => {
      if (request.method !== 'POST' || request.path !== FAKE_ANTHROPIC_MESSAGES_PATH) {
        sendJson(res, HTTP_NOT_FOUND, errorEnvelope('not_found_error', `no fake route for ${request.method} ${request.path}`), headers());
        return;
      }
      requests.push(request);
      const index = counter++;
      const answer = await handler(request, index);
      const reply = typeof answer === 'string' ? replyText(answer) : answer;
      switch (reply.kind) {
        case 'hang':
          return; // the connection stays open until close()
        case 'error':
          sendJson(res, reply.status, errorEnvelope(reply.errorType ?? 'api_error', reply.message ?? 'fake server error'), headers());
          return;
        case 'text':
          sendJson(
            res,
            HTTP_OK,
            {
              id: `msg_fake_${index}`,
              type: 'message',
              role: 'assistant',
              model: reply.model ?? request.body?.model ?? 'fake-model',
              content: [{ type: 'text', text: reply.text, citations: null }],
              stop_reason: reply.stopReason === undefined ? 'end_turn' : reply.stopReason,
              stop_sequence: null,
              stop_details: null,
              container: null,
              diagnostics: null,
              usage: { input_tokens: FAKE_INPUT_TOKENS, output_tokens: FAKE_OUTPUT_TOKENS },
            },
            headers(),
          );
      }
    },
    (res, error) => sendJson(res, HTTP_INTERNAL_ERROR, errorEnvelope('api_error', `fake handler threw: ${String(error)}`), headers()),
  );
  return { baseURL: server.origin, requests, close: () => server.close() };
}

function errorEnvelope(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}

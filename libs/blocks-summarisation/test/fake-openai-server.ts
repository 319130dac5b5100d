import { FakeAnthropicReply, replyText } from './fake-anthropic-server';
import { RecordedRequest, sendJson, startFakeJsonServer } from './fake-json-server';

/**
 * A minimal local stand-in for an OpenAI-compatible Chat Completions server (POST
 * /v1/chat/completions, JSON answers), for tests that drive the real `openai` SDK:
 * `new OpenAI({ apiKey: 'test', baseURL })`. Replies use the fake Anthropic server's shapes
 * (`replyText`, `replyError`, `replyHang`; `stopReason` becomes `finish_reason`), so one test
 * can run against either provider. A streaming request is refused: the adapter asks for JSON.
 */

export type FakeOpenAiRequest = RecordedRequest;
export type FakeOpenAiHandler = (request: FakeOpenAiRequest, index: number) => FakeAnthropicReply | string | Promise<FakeAnthropicReply | string>;

export interface FakeOpenAi {
  /** Pass as `baseURL` to the SDK client (it ends in `/v1`, as OpenAI's does). */
  readonly baseURL: string;
  readonly requests: FakeOpenAiRequest[];
  close(): Promise<void>;
}

export const FAKE_OPENAI_COMPLETIONS_PATH = '/v1/chat/completions';
/** Usage numbers are not under test; the same as the fake Anthropic server's. */
export const FAKE_OPENAI_PROMPT_TOKENS = 10;
export const FAKE_OPENAI_COMPLETION_TOKENS = 5;
const HTTP_OK = 200;
const HTTP_BAD_REQUEST = 400;
const HTTP_NOT_FOUND = 404;
const HTTP_INTERNAL_ERROR = 500;

export async function startFakeOpenAi(handler: FakeOpenAiHandler = () => 'Fake summary.'): Promise<FakeOpenAi> {
  const requests: FakeOpenAiRequest[] = [];
  let counter = 0;
  const server = await startFakeJsonServer(
    async (req, res, request) => {
      if (request.method !== 'POST' || request.path !== FAKE_OPENAI_COMPLETIONS_PATH) {
        sendJson(res, HTTP_NOT_FOUND, errorEnvelope('not_found_error', `no fake route for ${request.method} ${request.path}`));
        return;
      }
      requests.push(request);
      const index = counter++;
      if (request.body?.stream) {
        sendJson(res, HTTP_BAD_REQUEST, errorEnvelope('invalid_request_error', 'the fake answers JSON only'));
        return;
      }
      const answer = await handler(request, index);
      const reply = typeof answer === 'string' ? replyText(answer) : answer;
      switch (reply.kind) {
        case 'hang':
          return; // the connection stays open until the client aborts or close()
        case 'error':
          sendJson(res, reply.status, errorEnvelope(reply.errorType ?? 'server_error', reply.message ?? 'fake server error'));
          return;
        case 'text':
          sendJson(res, HTTP_OK, {
            id: `chatcmpl-fake-${index}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: reply.model ?? request.body?.model ?? 'fake-model',
            choices: [{ index: 0, message: { role: 'assistant', content: reply.text, refusal: null }, finish_reason: reply.stopReason === undefined ? 'stop' : reply.stopReason, logprobs: null }],
            usage: { prompt_tokens: FAKE_OPENAI_PROMPT_TOKENS, completion_tokens: FAKE_OPENAI_COMPLETION_TOKENS, total_tokens: FAKE_OPENAI_PROMPT_TOKENS + FAKE_OPENAI_COMPLETION_TOKENS },
          });
      }
    },
    (res, error) => sendJson(res, HTTP_INTERNAL_ERROR, errorEnvelope('server_error', `fake handler threw: ${String(error)}`)),
  );
  return { baseURL: `${server.origin}/v1`, requests, close: () => server.close() };
}

/** The user turn of a Chat Completions request (after the system message). */
export function openAiPrompt(request: FakeOpenAiRequest): string {
  return request.body.messages.find((m: { role: string }) => m.role === 'user')?.content ?? '';
}

function errorEnvelope(type: string, message: string) {
  return { error: { message, type, param: null, code: null } };
}

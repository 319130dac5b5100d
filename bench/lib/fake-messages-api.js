'use strict';
// A local stand-in for the Anthropic Messages API (POST /v1/messages) for the bench: the real
// SDK is pointed at it through ANTHROPIC_BASE_URL (the bench has no network). Its answer is long
// on purpose — the prompt's last user text, repeated to `answerChars` — so the service's text
// cap is exercised on every call. Records the characters of every prompt it was sent.
const { createServer } = require('node:http');

const MESSAGES_PATH = '/v1/messages';

function startFakeMessagesApi({ answerChars }) {
  const stats = { calls: 0, promptChars: 0 };
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url.split('?')[0] !== MESSAGES_PATH) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: req.url } }));
        return;
      }
      const body = JSON.parse(raw);
      const prompt = body.messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? '').join(''))).join('\n');
      stats.calls++;
      stats.promptChars += prompt.length;
      const seed = prompt.slice(-500) || 'summary';
      const text = seed.repeat(Math.ceil(answerChars / seed.length)).slice(0, answerChars);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `msg_bench_${stats.calls}`,
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [{ type: 'text', text }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: Math.ceil(prompt.length / 4), output_tokens: Math.ceil(text.length / 4) },
        }),
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        baseURL: `http://127.0.0.1:${server.address().port}`,
        stats,
        close: () =>
          new Promise((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      }),
    ),
  );
}

module.exports = { startFakeMessagesApi };

'use strict';
// The MCP `tools/list` answer's size, as an agent and as the admin: what every agent pays in context
// on every turn. Tokens two ways: characters ÷ 4 (the usual rule of thumb) and the project's own
// CJK-aware estimate (`estimateTokens`, blocks-summarisation).
const { join } = require('node:path');
const dist = require('../lib/dist');

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const PROTOCOL_VERSION = '2025-06-18';

/** One JSON-RPC call over stateless Streamable HTTP; the answer may come as JSON or as one SSE event. */
async function rpc(url, token, id, method, params) {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, authorization: `Bearer ${token}`, 'mcp-protocol-version': PROTOCOL_VERSION },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const text = await res.text();
  const data = res.headers.get('content-type')?.includes('text/event-stream') ? text.split('\n').find((l) => l.startsWith('data:')).slice(5) : text;
  const answer = JSON.parse(data);
  if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result;
}

async function toolsListSize(url, token) {
  await rpc(url, token, 1, 'initialize', { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'qhorus-bench', version: '1' } });
  const result = await rpc(url, token, 2, 'tools/list', {});
  const text = JSON.stringify(result.tools);
  const { estimateTokens } = require(join(dist.DIST, 'libs/blocks-summarisation/src/index.js'));
  return { tools: result.tools.length, chars: text.length, tokensByChars: Math.ceil(text.length / 4), tokensEstimated: estimateTokens(text) };
}

/** `agent` and `admin`: {chars, tools, tokensByChars, tokensEstimated}. */
async function measureToolsList(url, agentToken, adminToken) {
  return { agent: await toolsListSize(url, agentToken), admin: await toolsListSize(url, adminToken) };
}

module.exports = { measureToolsList };

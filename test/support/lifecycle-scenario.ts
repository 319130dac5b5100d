import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ApiClient, waitFor } from './http';
import { waitForQuietSummary, waitForSummary } from './channel-helpers';
import { connectMcp, useTool } from './mcp-client';
import { SseClient } from './sse-client';

/** A secret no run shares with another, so a hit can only come from this run. */
export function uniqueSecret(): string {
  return `sk-live-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

export interface SecretScenario {
  channel: string;
  correlationId: string;
  /** The seq of the message that carried the secret. */
  seq: number;
  secret: string;
}

/**
 * Posts `secret` (content, topic, metadata) into a verbatim channel as the QUERY of a thread, lets
 * at least two summary versions and the thread summary capture it, and returns where it is.
 */
export async function postSecret(alice: ApiClient, bob: ApiClient, channel: string, secret: string): Promise<SecretScenario> {
  const correlationId = 'q-secret';
  expect((await alice.post('/api/v1/channels', { name: channel, summariser: 'verbatim', summaryThreshold: 1 })).status).toBe(201);
  await alice.post(`/api/v1/channels/${channel}/messages`, { type: 'STATUS', content: 'starting the deploy' });
  const q = await alice.post(
    `/api/v1/channels/${channel}/messages`,
    { type: 'QUERY', content: `is ${secret} the production key?`, topic: `keys-${secret}`, metadata: { key: secret }, correlationId },
    { 'idempotency-key': `idem-${channel}` },
  );
  expect(q.status).toBe(201);
  const first = await waitForSummary(alice, channel, (s) => s.coversThroughSeq >= q.body.seq, 'a summary covering the secret');
  await bob.post(`/api/v1/channels/${channel}/messages`, { type: 'RESPONSE', content: 'yes, rotate it', correlationId });
  await waitForSummary(alice, channel, (s) => s.version > first.version && s.coversThroughSeq > q.body.seq, 'a second summary version');
  await waitForQuietSummary(alice, channel);
  const history = (await alice.get(`/api/v1/channels/${channel}/summary/history`)).body as { text: string }[];
  expect(history.filter((h) => h.text.includes(secret)).length).toBeGreaterThanOrEqual(2);
  const threadSummary = await waitFor(async () => {
    const r = await alice.get(`/api/v1/channels/${channel}/threads/${correlationId}/summary`);
    return r.status === 200 ? r.body : null;
  }, 'the thread summary');
  expect(threadSummary.text).toContain(secret);
  return { channel, correlationId, seq: q.body.seq, secret };
}

/** Waits until the summary has replayed past the redaction and the thread is summarised again from the tombstone. */
export async function waitForReplay(alice: ApiClient, s: SecretScenario): Promise<{ summary: any; threadSummary: any }> {
  const lastSeq = (await alice.get(`/api/v1/channels/${s.channel}`)).body.lastSeq;
  await waitForSummary(alice, s.channel, (x) => x.coversThroughSeq === lastSeq, 'the summary replayed to lastSeq');
  const summary = await waitForQuietSummary(alice, s.channel);
  const threadSummary = await waitFor(async () => {
    const r = await alice.get(`/api/v1/channels/${s.channel}/threads/${s.correlationId}/summary`);
    return r.status === 200 && r.body.text.includes('[redacted]') ? r.body : null;
  }, 'the thread summarised again');
  return { summary, threadSummary };
}

/** Every REST read of the channel, its SSE replay, every MCP tool and resource that reads it: each answer as text. */
export async function readEverySurface(client: ApiClient, s: SecretScenario): Promise<Record<string, string>> {
  const c = `/api/v1/channels/${s.channel}`;
  const rest = [
    '/api/v1/channels',
    c,
    `${c}/messages`,
    `${c}/messages?tail=10`,
    `${c}/messages?correlationId=${s.correlationId}`,
    `${c}/messages?type=QUERY`,
    `${c}/messages?sender=alice&includeEvents=true`,
    `${c}/summary`,
    `${c}/summary/history`,
    `${c}/context`,
    `${c}/context?format=openai`,
    `${c}/context?format=text`,
    `${c}/context?keepLast=1&maxTokens=2000&viewer=bob`,
    `${c}/threads`,
    `${c}/threads/${s.correlationId}`,
    `${c}/threads/${s.correlationId}/summary`,
    '/api/v1/inbox',
    // Search (DESIGN §12): a redacted message never matches, and no snippet quotes it.
    `/api/v1/search?q=${encodeURIComponent(s.secret)}`,
    `/api/v1/search?q=${encodeURIComponent(`"${s.secret}"`)}&channel=${s.channel}`,
    // Export (DESIGN §10): tombstones only.
    `${c}/export`,
  ];
  const out: Record<string, string> = {};
  for (const path of rest) {
    const res = await client.get(path);
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    out[`GET ${path}`] = JSON.stringify(res.body);
  }
  const sse = await SseClient.open(client.baseUrl, `${c}/events?afterSeq=0&includeEvents=true`, client.token);
  try {
    await sse.stream!.next('summary.updated');
    out['SSE replay'] = JSON.stringify(sse.stream!.events);
  } finally {
    sse.stream!.close();
  }
  const mcp: Client = await connectMcp(client.baseUrl, client.token);
  try {
    const tools: [string, Record<string, unknown>][] = [
      ['list_channels', {}],
      ['search_messages', { query: s.secret }],
      ['check_messages', { channel: s.channel }],
      ['check_messages', { channel: s.channel, correlation_id: s.correlationId, include_events: true }],
      ['wait_for_messages', { channel: s.channel, after_seq: 0, timeout_s: 1 }],
      ['get_channel_summary', { channel: s.channel }],
      ['get_channel_context', { channel: s.channel }],
      ['list_threads', { channel: s.channel }],
      ['get_thread', { channel: s.channel, correlation_id: s.correlationId }],
      ['check_inbox', {}],
    ];
    for (const [name, args] of tools) out[`MCP ${name} ${JSON.stringify(args)}`] = JSON.stringify(await useTool(mcp, name, args));
    const { resources } = await mcp.listResources();
    out['MCP resources/list'] = JSON.stringify(resources);
    for (const r of resources.filter((x) => x.uri.includes(`/${s.channel}/`))) out[`MCP resources/read ${r.uri}`] = JSON.stringify(await mcp.readResource({ uri: r.uri }));
    expect(Object.keys(out).filter((k) => k.startsWith('MCP resources/read'))).toHaveLength(2);
  } finally {
    await mcp.close();
  }
  return out;
}

/** The surfaces whose text contains `secret`. */
export function surfacesWith(texts: Record<string, string>, secret: string): string[] {
  return Object.entries(texts)
    .filter(([, text]) => text.includes(secret))
    .map(([surface]) => surface);
}

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { waitFor } from '../support/http';
import { callTool, connectMcp } from '../support/mcp-client';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { AppRoute, routeRecorder } from './app-routes';

/**
 * DESIGN §6: every endpoint × {no token, wrong token, non-member, member, admin}. The private
 * channel `vault` has one member; `vaulx` (same length) exists nowhere. A non-member must get
 * from `vault` exactly what anyone gets from `vaulx`: same status, same headers that matter,
 * same bytes once the name is swapped.
 */
type Who = 'none' | 'wrong' | 'outsider' | 'member' | 'admin';
const WHO: Who[] = ['none', 'wrong', 'outsider', 'member', 'admin'];
const PRIVATE = 'vault';
const MISSING = 'vaulx';
const THREAD = 'vault-thread';
/** Agents the admin revokes and rotates in the matrix. */
const EXPENDABLE = 'expendable';
const ROTATABLE = 'rotatable';
/** Webhooks: the member's own (the others' is a 404 to a non-owner), and hooks deleted one per call. */
const HOOK_URL = 'http://127.0.0.1:9/hook';
const memberHooks: { kept: string; deletable: string[] } = { kept: '', deletable: [] };
const hook = (rest = '') => `/api/v1/webhooks/${memberHooks.kept}${rest}`;

interface Call {
  path: string;
  body?: unknown;
}
interface Row {
  method: string;
  /** The route as Fastify registered it. */
  url: string;
  call: (channel: string, unique: string) => Call;
  expect: Record<Who, number>;
  /** Answers about one channel: a non-member's answer for `vault` must equal the answer for `vaulx`. */
  channelScoped?: boolean;
}

/** The private channel a member's or the admin's DELETE removes (`unique` starts with who is calling). */
const DOOMED = ['member', 'admin'];
const doomedFor = (unique: string): string | undefined => (DOOMED.includes(unique.split('-')[0]) ? `doomed-${unique.split('-')[0]}` : undefined);

const statuses = (none: number, wrong: number, outsider: number, member: number, admin: number): Record<Who, number> => ({ none, wrong, outsider, member, admin });
const ch = (channel: string, rest = '') => `/api/v1/channels/${channel}${rest}`;

const MATRIX: Row[] = [
  { method: 'POST', url: '/api/v1/agents', call: (_, u) => ({ path: '/api/v1/agents', body: { name: `agent-${u}` } }), expect: statuses(401, 401, 403, 403, 201) },
  { method: 'GET', url: '/api/v1/agents', call: () => ({ path: '/api/v1/agents' }), expect: statuses(401, 401, 200, 200, 200) },
  // Revoking is idempotent (a repeat answers the first revocation), so the admin's call is 200 whatever ran before.
  { method: 'DELETE', url: '/api/v1/agents/:name', call: () => ({ path: `/api/v1/agents/${EXPENDABLE}` }), expect: statuses(401, 401, 403, 403, 200) },
  { method: 'POST', url: '/api/v1/agents/:name/token', call: () => ({ path: `/api/v1/agents/${ROTATABLE}/token` }), expect: statuses(401, 401, 403, 403, 201) },
  { method: 'POST', url: '/api/v1/channels', call: (_, u) => ({ path: '/api/v1/channels', body: { name: `made-${u}` } }), expect: statuses(401, 401, 201, 201, 201) },
  { method: 'GET', url: '/api/v1/channels', call: () => ({ path: '/api/v1/channels' }), expect: statuses(401, 401, 200, 200, 200) },
  { method: 'GET', url: '/api/v1/channels/:name', call: (c) => ({ path: ch(c) }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  { method: 'PATCH', url: '/api/v1/channels/:name', call: (c) => ({ path: ch(c), body: { description: 'changed' } }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  { method: 'POST', url: '/api/v1/channels/:name/messages', call: (c, u) => ({ path: ch(c, '/messages'), body: { content: `hello ${u}` } }), expect: statuses(401, 401, 404, 201, 201), channelScoped: true },
  { method: 'POST', url: '/api/v1/channels/:name/messages/batch', call: (c, u) => ({ path: ch(c, '/messages/batch'), body: { messages: [{ content: `batch ${u}` }] } }), expect: statuses(401, 401, 404, 201, 201), channelScoped: true },
  { method: 'GET', url: '/api/v1/channels/:name/messages', call: (c) => ({ path: ch(c, '/messages') }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  { method: 'POST', url: '/api/v1/channels/:name/read', call: (c) => ({ path: ch(c, '/read'), body: { throughSeq: 0 } }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  { method: 'GET', url: '/api/v1/channels/:name/summary', call: (c) => ({ path: ch(c, '/summary') }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  { method: 'PUT', url: '/api/v1/channels/:name/summary', call: (c) => ({ path: ch(c, '/summary'), body: { text: 'by hand' } }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  { method: 'POST', url: '/api/v1/channels/:name/summary/refresh', call: (c) => ({ path: ch(c, '/summary/refresh') }), expect: statuses(401, 401, 404, 202, 202), channelScoped: true },
  { method: 'GET', url: '/api/v1/channels/:name/summary/history', call: (c) => ({ path: ch(c, '/summary/history') }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  { method: 'GET', url: '/api/v1/channels/:name/context', call: (c) => ({ path: ch(c, '/context') }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  { method: 'GET', url: '/api/v1/channels/:name/events', call: (c) => ({ path: ch(c, '/events') }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  { method: 'GET', url: '/api/v1/channels/:name/threads', call: (c) => ({ path: ch(c, '/threads?status=done') }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  { method: 'GET', url: '/api/v1/channels/:name/threads/:correlationId', call: (c) => ({ path: ch(c, `/threads/${THREAD}`) }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  { method: 'GET', url: '/api/v1/inbox', call: () => ({ path: '/api/v1/inbox' }), expect: statuses(401, 401, 200, 200, 200) },
  {
    method: 'GET',
    url: '/api/v1/channels/:name/threads/:correlationId/summary',
    call: (c) => ({ path: ch(c, `/threads/${THREAD}/summary`) }),
    expect: statuses(401, 401, 404, 200, 200),
    channelScoped: true,
  },
  // Data lifecycle (DESIGN §10). `member` created `vault`, so it may redact, rebuild and delete.
  { method: 'POST', url: '/api/v1/channels/:name/messages/:seq/redact', call: (c) => ({ path: ch(c, '/messages/1/redact'), body: { reason: 'matrix' } }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  { method: 'POST', url: '/api/v1/channels/:name/summary/rebuild', call: (c) => ({ path: ch(c, '/summary/rebuild') }), expect: statuses(401, 401, 404, 202, 202), channelScoped: true },
  // The member and the admin each delete a private channel of their own (`vault` is needed by the rows after).
  { method: 'DELETE', url: '/api/v1/channels/:name', call: (c, u) => ({ path: ch(doomedFor(u) ?? c) }), expect: statuses(401, 401, 404, 204, 204), channelScoped: true },
  // Search (DESIGN §12): anyone with a token searches what it may read; a channel it cannot read is a 404.
  { method: 'GET', url: '/api/v1/search', call: (c) => ({ path: `/api/v1/search?q=matrix&channel=${c}` }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  { method: 'GET', url: '/api/v1/audit', call: () => ({ path: '/api/v1/audit' }), expect: statuses(401, 401, 403, 403, 200) },
  { method: 'GET', url: '/api/v1/channels/:name/export', call: (c) => ({ path: ch(c, '/export') }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  // Archive, then unarchive (the member created the vault): it is writable again for the rows after.
  { method: 'POST', url: '/api/v1/channels/:name/archive', call: (c) => ({ path: ch(c, '/archive') }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  { method: 'POST', url: '/api/v1/channels/:name/unarchive', call: (c) => ({ path: ch(c, '/unarchive') }), expect: statuses(401, 401, 404, 200, 200), channelScoped: true },
  // MCP: the transport answers 401 itself; tools are covered tool by tool below.
  { method: 'POST', url: '/mcp', call: () => ({ path: '/mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }), expect: statuses(401, 401, 200, 200, 200) },
  { method: 'GET', url: '/mcp', call: () => ({ path: '/mcp' }), expect: statuses(401, 401, 405, 405, 405) },
  { method: 'DELETE', url: '/mcp', call: () => ({ path: '/mcp' }), expect: statuses(401, 401, 405, 405, 405) },
  { method: 'GET', url: '/metrics', call: () => ({ path: '/metrics' }), expect: statuses(401, 401, 200, 200, 200) },
  { method: 'POST', url: '/api/v1/webhooks', call: () => ({ path: '/api/v1/webhooks', body: { url: HOOK_URL, events: ['message.posted'] } }), expect: statuses(401, 401, 201, 201, 201) },
  { method: 'GET', url: '/api/v1/webhooks', call: () => ({ path: '/api/v1/webhooks' }), expect: statuses(401, 401, 200, 200, 200) },
  { method: 'GET', url: '/api/v1/webhooks/:id', call: () => ({ path: hook() }), expect: statuses(401, 401, 404, 200, 200) },
  { method: 'GET', url: '/api/v1/webhooks/:id/deliveries', call: () => ({ path: hook('/deliveries') }), expect: statuses(401, 401, 404, 200, 200) },
  { method: 'POST', url: '/api/v1/webhooks/:id/test', call: () => ({ path: hook('/test') }), expect: statuses(401, 401, 404, 202, 202) },
  { method: 'DELETE', url: '/api/v1/webhooks/:id', call: () => ({ path: `/api/v1/webhooks/${memberHooks.deletable.shift()}` }), expect: statuses(401, 401, 404, 200, 200) },
];

/** Readiness, liveness, API docs and the dashboard's static files: no token needed, no data inside. */
const isPublicPage = (r: AppRoute) => r.method === 'GET' && !r.url.startsWith('/api/') && !r.url.startsWith('/mcp') && r.url !== '/metrics';

interface Answer {
  status: number;
  contentType: string;
  contentLength: string | null;
  text: string;
}

describe('auth matrix: every endpoint × {no token, wrong token, non-member, member, admin}', () => {
  let t: TestApp;
  const recorder = routeRecorder();
  const tokens: Record<Who, string | undefined> = { none: undefined, wrong: 'qh_not-a-real-token', outsider: '', member: '', admin: TEST_ADMIN_TOKEN };
  let counter = 0;

  async function send(who: Who, method: string, call: Call): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (tokens[who]) headers.authorization = `Bearer ${tokens[who]}`;
    if (call.body !== undefined || method === 'POST') headers['content-type'] = 'application/json';
    if (call.path === '/mcp') headers.accept = 'application/json, text/event-stream';
    const body = method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify(call.body ?? {});
    const res = await fetch(t.baseUrl + call.path, { method, headers, body });
    const contentType = res.headers.get('content-type') ?? '';
    if (contentType.startsWith('text/event-stream')) {
      await res.body?.cancel();
      return { status: res.status, contentType, contentLength: null, text: '' };
    }
    return { status: res.status, contentType, contentLength: res.headers.get('content-length'), text: await res.text() };
  }

  beforeAll(async () => {
    t = await startTestApp('authmatrix', { beforeListen: recorder.beforeListen, env: { QHORUS_RATE_LIMIT_BURST: '100000', QHORUS_AUTH_FAILURE_BURST: '100000', QHORUS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });
    await t.agent(EXPENDABLE);
    await t.agent(ROTATABLE);
    const member = await t.agent('member');
    const outsider = await t.agent('outsider');
    tokens.member = member.token!;
    tokens.outsider = outsider.token!;
    expect((await member.post('/api/v1/channels', { name: PRIVATE, description: 'secret plans', members: ['member'] })).status).toBe(201);
    await member.post(ch(PRIVATE, '/messages'), { type: 'QUERY', content: 'the code?', correlationId: THREAD });
    await member.post(ch(PRIVATE, '/messages'), { type: 'DONE', correlationId: THREAD });
    await waitFor(async () => (await member.get(ch(PRIVATE, `/threads/${THREAD}/summary`))).status === 200, 'the private thread summary');
    const hooks = await Promise.all(Array.from({ length: 1 + WHO.length }, () => member.post('/api/v1/webhooks', { url: HOOK_URL, events: ['message.posted'] })));
    [memberHooks.kept, ...memberHooks.deletable] = hooks.map((res) => res.body.id as string);
    for (const who of DOOMED) expect((await member.post('/api/v1/channels', { name: `doomed-${who}`, members: ['member'] })).status).toBe(201);
  });
  afterAll(() => t?.close());

  it('has a row for every route the app serves (add one when you add an endpoint)', () => {
    const uncovered = recorder.routes.filter((r) => !isPublicPage(r) && !MATRIX.some((row) => row.method === r.method && row.url === r.url));
    expect(uncovered).toEqual([]);
    expect(recorder.routes.filter(isPublicPage).map((r) => r.url)).toEqual(expect.arrayContaining(['/health']));
  });

  describe.each(MATRIX.map((row) => [`${row.method} ${row.url}`, row] as const))('%s', (_, row) => {
    it.each(WHO)('as %s', async (who) => {
      const answer = await send(who, row.method, row.call(PRIVATE, `${who}-${++counter}`));
      expect({ who, status: answer.status }).toEqual({ who, status: row.expect[who] });
      if (answer.status >= 400 && !row.url.startsWith('/mcp')) {
        expect(JSON.parse(answer.text)).toMatchObject({ statusCode: answer.status, error: expect.any(String), message: expect.any(String) });
      }
    });

    if (row.channelScoped) {
      it(`a non-member learns nothing: '${PRIVATE}' answers byte for byte like the missing '${MISSING}'`, async () => {
        const onPrivate = await send('outsider', row.method, row.call(PRIVATE, `x-${++counter}`));
        const onMissing = await send('outsider', row.method, row.call(MISSING, `x-${++counter}`));
        expect(onPrivate.status).toBe(404);
        expect({ ...onPrivate, text: onPrivate.text.replaceAll(PRIVATE, MISSING) }).toEqual(onMissing);
      });
    }
  });

  it('public pages answer without a token and carry no channel data', async () => {
    for (const route of recorder.routes.filter(isPublicPage)) {
      const path = route.url.replace('*', 'index.html');
      const answer = await send('none', 'GET', { path });
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      expect(answer.text).not.toContain(PRIVATE);
    }
  });

  it("lists, metrics, the agent list and the inbox never name the private channel to a non-member", async () => {
    await send('member', 'POST', { path: ch(PRIVATE, '/messages'), body: { type: 'QUERY', content: 'anyone?', correlationId: 'vault-open' } });
    await send('member', 'POST', { path: ch(PRIVATE, '/messages'), body: { type: 'COMMAND', content: 'outsider, do it', target: 'outsider', correlationId: 'vault-owed' } });
    expect(JSON.parse((await send('admin', 'GET', { path: '/api/v1/inbox' })).text).map((i: { channel: string }) => i.channel)).toContain(PRIVATE);
    for (const path of ['/api/v1/channels', '/metrics', '/api/v1/agents', '/api/v1/inbox']) {
      const answer = await send('outsider', 'GET', { path });
      expect({ path, status: answer.status, leaks: answer.text.includes(PRIVATE) }).toEqual({ path, status: 200, leaks: false });
    }
    const asMember = JSON.parse((await send('member', 'GET', { path: '/api/v1/channels' })).text);
    expect(asMember.map((c: { name: string }) => c.name)).toContain(PRIVATE);
  });

  it('creating a channel under a private name says only that the name is taken (one global namespace)', async () => {
    const answer = await send('outsider', 'POST', { path: '/api/v1/channels', body: { name: PRIVATE } });
    expect(answer.status).toBe(409);
    expect(JSON.parse(answer.text)).toEqual({ statusCode: 409, error: 'Conflict', message: `Channel name '${PRIVATE}' is already taken` });
  });

  describe('MCP tools', () => {
    const clients: Partial<Record<Who, Client>> = {};
    beforeAll(async () => {
      for (const who of ['outsider', 'member', 'admin'] as const) clients[who] = await connectMcp(t.baseUrl, tokens[who]);
    });
    afterAll(async () => Promise.all(Object.values(clients).map((c) => c?.close())));

    it('refuses to connect without a valid token', async () => {
      await expect(connectMcp(t.baseUrl)).rejects.toThrow(/401|Unauthorized|Missing bearer/i);
      await expect(connectMcp(t.baseUrl, 'qh_not-a-real-token')).rejects.toThrow(/401|Unauthorized|Unknown/i);
    });

    const channelTools: [string, Record<string, unknown>][] = [
      ['send_message', { content: 'via mcp' }],
      ['check_messages', {}],
      ['wait_for_messages', { after_seq: 0 }],
      ['mark_read', { through_seq: 0 }],
      ['get_channel_summary', {}],
      ['configure_channel_summary', { update_after_messages: 30 }],
      ['trigger_channel_summary_update', {}],
      ['update_channel_summary', { text: 'mcp override' }],
      ['get_channel_context', {}],
      ['list_threads', { status: 'done' }],
      ['get_thread', { correlation_id: THREAD }],
    ];
    it.each(channelTools)("%s: members and the admin may; a non-member gets exactly the missing channel's error", async (tool, args) => {
      for (const who of ['member', 'admin'] as const) {
        const ok = await callTool(clients[who]!, tool, { channel: PRIVATE, ...args });
        expect({ who, tool, isError: ok.isError, text: ok.isError ? ok.text : '' }).toEqual({ who, tool, isError: false, text: '' });
      }
      const onPrivate = await callTool(clients.outsider!, tool, { channel: PRIVATE, ...args });
      const onMissing = await callTool(clients.outsider!, tool, { channel: MISSING, ...args });
      expect(onPrivate.isError).toBe(true);
      expect(JSON.parse(JSON.stringify(onPrivate).replaceAll(PRIVATE, MISSING))).toEqual(onMissing);
    });

    it.each([
      ['revoke_agent', EXPENDABLE],
      ['rotate_agent_token', ROTATABLE],
    ])('%s: the admin only', async (tool, name) => {
      for (const who of ['outsider', 'member'] as const) {
        expect(await callTool(clients[who]!, tool, { name })).toMatchObject({ isError: true, body: { statusCode: 403 } });
      }
      expect((await callTool(clients.admin!, tool, { name })).isError).toBe(false);
    });

    it('check_inbox and resources/list never show the private channel to a non-member', async () => {
      expect(JSON.stringify((await callTool(clients.outsider!, 'check_inbox')).body)).not.toContain(PRIVATE);
      expect(JSON.stringify(await clients.outsider!.listResources())).not.toContain(PRIVATE);
      expect(JSON.stringify(await clients.member!.listResources())).toContain(`qhorus://channels/${PRIVATE}/summary`);
    });

    it('list_channels shows the private channel to its member and the admin only', async () => {
      const names = async (who: Who) => {
        const outcome = await callTool(clients[who]!, 'list_channels');
        return JSON.stringify(outcome.body ?? outcome.text);
      };
      expect(await names('outsider')).not.toContain(PRIVATE);
      expect(await names('member')).toContain(PRIVATE);
      expect(await names('admin')).toContain(PRIVATE);
    });
  });
});

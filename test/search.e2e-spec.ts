import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as PgClient } from 'pg';
import { SearchIndexMaintainer } from '../apps/channel-service/src/search/search-index.maintainer';
import { ApiClient } from './support/http';
import { callTool, connectMcp, useTool } from './support/mcp-client';
import { loadSwaggerPluginMetadata } from './support/swagger-plugin-metadata';
import { startTestApp, TestApp } from './support/test-app';

interface SearchResult {
  channel: string;
  seq: number;
  sender: string;
  type: string;
  topic: string;
  createdAt: string;
  snippet: string;
  rank: number;
}
interface SearchPage {
  results: SearchResult[];
  nextCursor: string | null;
}

/** Far above any backlog here: summaries stay out of the way. */
const MANUAL_ONLY = 10_000;

/** Issue 32 / DESIGN §12: full-text search over REST and MCP, on real Postgres. */
describe('search', () => {
  let t: TestApp;
  let alice: ApiClient, bob: ApiClient, mallory: ApiClient;
  let mcpAlice: Client, mcpMallory: Client;
  let pg: PgClient;

  const search = (who: ApiClient, params: Record<string, string | number | boolean>) =>
    who.get(`/api/v1/search?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()}`);
  const found = async (who: ApiClient, params: Record<string, string | number | boolean>) => {
    const res = await search(who, params);
    expect(res.status).toBe(200);
    return res.body as SearchPage;
  };
  const keys = (page: SearchPage) => page.results.map((r) => `${r.channel}#${r.seq}`);
  const post = async (who: ApiClient, channel: string, content: string, extra: Record<string, unknown> = {}) => {
    const res = await who.post(`/api/v1/channels/${channel}/messages`, { content, ...extra });
    expect(res.status).toBe(201);
    return res.body.seq as number;
  };

  beforeAll(async () => {
    await loadSwaggerPluginMetadata(); // the document as `nest build` serves it (DTO properties)
    t = await startTestApp('search', { inProcessQueue: true });
    [alice, bob, mallory] = await Promise.all([t.agent('alice'), t.agent('bob'), t.agent('mallory')]);
    for (const [name, members] of [['ops', undefined], ['design', undefined], ['secret', ['alice', 'bob']]] as const) {
      const res = await alice.post('/api/v1/channels', { name, summaryThreshold: MANUAL_ONLY, ...(members ? { members } : {}) });
      expect(res.status).toBe(201);
    }
    await post(alice, 'ops', 'We decided the retry policy: exponential backoff, five attempts.', { topic: 'retries' });
    await post(bob, 'ops', 'Retry later, the deploy is flaky today.');
    await post(bob, 'design', 'Policy review: the retry budget and the retry policy and the retry limit, retry everything.');
    await post(alice, 'design', 'Backoff without jitter makes a thundering herd.');
    await post(bob, 'secret', 'The retry policy for the vault rotation is secret.');
    await post(alice, 'ops', 'deploy finished', { type: 'EVENT' });
    expect((await alice.post('/api/v1/channels', { name: 'paging', summaryThreshold: MANUAL_ONLY })).status).toBe(201);
    // Ties on purpose: equal texts rank equally, ordered by channel then seq.
    const messages = Array.from({ length: 23 }, (_, i) => ({ content: i % 3 === 0 ? 'needle needle haystack' : `needle in stack ${i}` }));
    expect((await alice.post('/api/v1/channels/paging/messages/batch', { messages })).status).toBe(201);
    [mcpAlice, mcpMallory] = await Promise.all([connectMcp(t.baseUrl, alice.token), connectMcp(t.baseUrl, mallory.token)]);
    pg = new PgClient({ connectionString: t.databaseUrl });
    await pg.connect();
  });

  afterAll(async () => {
    await Promise.all([mcpAlice?.close(), mcpMallory?.close()]);
    await pg?.end();
    await t?.close();
  });

  it('builds the GIN index concurrently at start-up and records the configuration', async () => {
    await t.app.get(SearchIndexMaintainer).whenSettled();
    const { rows } = await pg.query(`SELECT i.indisvalid AS valid, am.amname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam WHERE c.relname = 'messages_search_idx'`);
    expect(rows).toEqual([{ valid: true, amname: 'gin' }]);
    const config = await pg.query(`SELECT config, reindex_after, reindex_through FROM search_config`);
    expect(config.rows).toEqual([{ config: 'simple', reindex_after: null, reindex_through: null }]);
  });

  it('ranks the message that says it most first, with a snippet around the match', async () => {
    const page = await found(alice, { q: 'retry policy' });
    expect(keys(page)).toEqual(['design#1', 'ops#1', 'secret#1']);
    expect(page.results[0].rank).toBeGreaterThan(page.results[1].rank);
    const [best] = page.results;
    expect(best).toMatchObject({ channel: 'design', seq: 1, sender: 'bob', type: 'STATUS', topic: 'general' });
    expect(new Date(best.createdAt).toString()).not.toBe('Invalid Date');
    expect(best.snippet).toContain('«retry» «policy»');
    expect(page.nextCursor).toBeNull();
  });

  it('understands a quoted phrase, or, and -word', async () => {
    expect(keys(await found(alice, { q: '"retry policy"' }))).toEqual(expect.arrayContaining(['design#1', 'ops#1', 'secret#1']));
    // "policy retry" as a phrase is in no message, though both words are in three.
    expect(keys(await found(alice, { q: '"policy retry"' }))).toEqual([]);
    expect(keys(await found(alice, { q: 'jitter or flaky' })).sort()).toEqual(['design#2', 'ops#2']);
    expect(keys(await found(alice, { q: 'retry -policy' }))).toEqual(['ops#2']);
  });

  it('matches the topic too, words as written (simple: no stemming)', async () => {
    expect(keys(await found(alice, { q: 'retries' }))).toEqual(['ops#1']);
    expect(keys(await found(alice, { q: 'decide' }))).toEqual([]);
    expect(keys(await found(alice, { q: 'DECIDED' }))).toEqual(['ops#1']);
  });

  it('filters by channel, type and sender', async () => {
    expect(keys(await found(alice, { q: 'retry', channel: 'ops' }))).toEqual(['ops#1', 'ops#2']);
    expect(keys(await found(alice, { q: 'retry', sender: 'alice' }))).toEqual(['ops#1']);
    expect(keys(await found(alice, { q: 'retry', type: 'QUERY' }))).toEqual([]);
    expect((await found(alice, { q: 'retry', type: 'status,query' })).results).toHaveLength(4);
  });

  it('hides EVENTs unless includeEvents (or type names EVENT)', async () => {
    expect(keys(await found(alice, { q: 'finished' }))).toEqual([]);
    expect(keys(await found(alice, { q: 'finished', includeEvents: true }))).toEqual(['ops#3']);
    expect(keys(await found(alice, { q: 'finished', type: 'EVENT' }))).toEqual(['ops#3']);
  });

  it('never shows a private channel to a non-member: not in results, and a 404 as a filter', async () => {
    expect(keys(await found(mallory, { q: 'retry policy' }))).toEqual(['design#1', 'ops#1']);
    expect(keys(await found(mallory, { q: 'vault' }))).toEqual([]);
    const res = await search(mallory, { q: 'vault', channel: 'secret' });
    expect(res.status).toBe(404);
    expect((await search(mallory, { q: 'vault', channel: 'nowhere' })).status).toBe(404);
    expect(keys(await found(bob, { q: 'vault', channel: 'secret' }))).toEqual(['secret#1']);
    expect(keys(await found(t.admin, { q: 'vault' }))).toEqual(['secret#1']);
  });

  it('pages through every result once, in rank order, with a stable opaque cursor', async () => {
    const all = await found(alice, { q: 'needle', limit: 100 });
    expect(all.results).toHaveLength(23);
    const seen: SearchResult[] = [];
    let cursor: string | null = null;
    do {
      const page: SearchPage = await found(alice, { q: 'needle', limit: 4, ...(cursor ? { cursor } : {}) });
      expect(page.results.length).toBeGreaterThan(0); // a cursor never leads to an empty page
      expect(page.results.length).toBeLessThanOrEqual(4);
      seen.push(...page.results);
      cursor = page.nextCursor;
      // A message posted mid-paging ranks below the cursor's position or above it, never twice.
      if (seen.length === 8) await post(alice, 'paging', 'needle late');
    } while (cursor);
    const seenKeys = seen.map((r) => `${r.channel}#${r.seq}`);
    expect(new Set(seenKeys).size).toBe(seenKeys.length);
    for (const key of keys(all)) expect(seenKeys).toContain(key);
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1], seen[i]];
      expect(a.rank > b.rank || (a.rank === b.rank && (a.channel < b.channel || (a.channel === b.channel && a.seq < b.seq)))).toBe(true);
    }
  });

  it('refuses bad input with a 400 naming it', async () => {
    const cases: [Record<string, string | number>, string][] = [
      [{ q: '' }, 'q'],
      [{ q: '   ' }, 'q'],
      [{ q: 'x'.repeat(501) }, 'q'],
      [{ q: '!!! ... ???' }, 'q'],
      [{ q: '-policy' }, 'q'],
      [{ q: 'retry', type: 'BOGUS' }, 'type'],
      [{ q: 'retry', limit: 0 }, 'limit'],
      [{ q: 'retry', cursor: 'not-a-cursor' }, 'cursor'],
      [{ q: 'retry', cursor: Buffer.from('{"v":1,"r":"0.1;drop","c":"ops","s":1,"f":"x"}').toString('base64url') }, 'cursor'],
      [{ q: 'retry', includeEvents: 'maybe' }, 'includeEvents'],
      [{ q: 'retry', bogus: 1 }, 'bogus'],
      [{ q: 're\u0000try' }, 'NUL'],
    ];
    for (const [params, field] of cases) {
      const res = await search(alice, params);
      expect({ params, status: res.status }).toEqual({ params, status: 400 });
      expect(JSON.stringify(res.body.details ?? res.body.message)).toContain(field);
    }
    expect((await t.anonymous.get('/api/v1/search?q=retry')).status).toBe(401);
    // A missing q is named too.
    const missing = await alice.get('/api/v1/search');
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body.details)).toContain('"q"');
  });

  it('refuses a limit above QHORUS_SEARCH_LIMIT_MAX naming the maximum (never a shorter page), as the document states', async () => {
    const over = await search(alice, { q: 'needle', limit: 101 });
    expect(over.body).toMatchObject({ statusCode: 400, details: [{ field: 'limit', problems: ['must be at most 100 (QHORUS_SEARCH_LIMIT_MAX)'] }] });
    const long = await search(alice, { q: 'x'.repeat(501) });
    expect(long.body.details).toEqual([{ field: 'q', problems: ['must be at most 500 characters (QHORUS_SEARCH_QUERY_MAX_CHARS); got 501'] }]);
    const params = (await t.anonymous.get('/docs-json')).body.paths['/api/v1/search'].get.parameters;
    expect(params.find((p: { name: string }) => p.name === 'limit').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(params.find((p: { name: string }) => p.name === 'q').schema).toMatchObject({ type: 'string', maxLength: 500 });
    const viaMcp = await callTool(mcpAlice, 'search_messages', { query: 'needle', limit: 101 });
    expect(viaMcp).toMatchObject({ isError: true, body: { statusCode: 400, details: [{ field: 'limit', problems: ['must be at most 100 (QHORUS_SEARCH_LIMIT_MAX)'] }] } });
  });

  it('refuses a cursor from another search', async () => {
    const first = await found(alice, { q: 'needle', limit: 2 });
    expect(first.nextCursor).not.toBeNull();
    const res = await search(alice, { q: 'haystack', limit: 2, cursor: first.nextCursor! });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('cursor');
  });

  it('a message whose content and topic are gone (redaction) no longer matches', async () => {
    const seq = await post(bob, 'design', 'The migration window is Tuesday at zerohour.', { topic: 'windowing' });
    expect(keys(await found(alice, { q: 'zerohour' }))).toEqual([`design#${seq}`]);
    // Redaction (DESIGN §10) by the sender: content and topic gone from the row.
    expect((await bob.post(`/api/v1/channels/design/messages/${seq}/redact`, { reason: 'wrong window' })).status).toBe(200);
    expect(keys(await found(alice, { q: 'zerohour' }))).toEqual([]);
    expect(keys(await found(alice, { q: 'windowing' }))).toEqual([]);
    const { rows } = await pg.query(`SELECT search_vector::text AS v FROM messages WHERE seq = $1 AND channel_id = (SELECT id FROM channels WHERE name = 'design')`, [seq]);
    expect(rows).toEqual([{ v: '' }]);
  });

  describe('MCP search_messages', () => {
    it('answers as REST does, private channels included only for members', async () => {
      const rest = await found(alice, { q: 'retry policy' });
      const viaMcp = await useTool(mcpAlice, 'search_messages', { query: 'retry policy' });
      expect(viaMcp).toEqual(JSON.parse(JSON.stringify(rest)));
      const mallorys = await useTool(mcpMallory, 'search_messages', { query: 'vault' });
      expect(mallorys.results).toEqual([]);
      const denied = await callTool(mcpMallory, 'search_messages', { query: 'vault', channel: 'secret' });
      expect(denied.isError).toBe(true);
      expect(denied.body.statusCode).toBe(404);
    });

    it('pages with limit and cursor, and names a bad argument by its own name', async () => {
      const first = await useTool(mcpAlice, 'search_messages', { query: 'needle', channel: 'paging', limit: '5' });
      expect(first.results).toHaveLength(5);
      const second = await useTool(mcpAlice, 'search_messages', { query: 'needle', channel: 'paging', limit: 5, cursor: first.nextCursor });
      expect(second.results.map((r: SearchResult) => r.seq)).not.toEqual(expect.arrayContaining(first.results.map((r: SearchResult) => r.seq)));
      const blank = await callTool(mcpAlice, 'search_messages', { query: '  ' });
      expect(blank.isError).toBe(true);
      expect(JSON.stringify(blank.body.details)).toContain('"query"');
      const unknown = await callTool(mcpAlice, 'search_messages', { query: 'needle', bogus: 1 });
      expect(unknown.isError).toBe(true);
      expect(JSON.stringify(unknown.body.details)).toContain('"bogus"');
    });

    it('has a portable input schema: a closed object, no unions', async () => {
      const { tools } = await mcpAlice.listTools();
      const tool = tools.find((x) => x.name === 'search_messages')!;
      expect(tool.inputSchema).toMatchObject({ type: 'object', required: ['query'], additionalProperties: false });
      const props = tool.inputSchema.properties as Record<string, { type: unknown }>;
      expect(Object.keys(props).sort()).toEqual(['channel', 'cursor', 'limit', 'query']);
      for (const p of Object.values(props)) expect(typeof p.type).toBe('string');
      expect(props.limit.type).toBe('integer');
    });
  });

  it('documents the route: integer seq, every status', async () => {
    const doc = (await t.anonymous.get('/docs-json')).body;
    const op = doc.paths['/api/v1/search'].get;
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '404', '429', '503']);
    const result = doc.components.schemas.SearchResultResponse;
    expect(result.properties.seq.type).toBe('integer');
    const limit = op.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema.type).toBe('integer');
    expect(doc.components.schemas.SearchResponse.properties.nextCursor).toMatchObject({ type: 'string', nullable: true });
  });
});

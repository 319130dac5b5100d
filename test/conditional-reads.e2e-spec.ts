import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Database } from '../apps/channel-service/src/database/database';
import { ApiClient } from './support/http';
import { startAnotherInstance, startTestApp, TestApp } from './support/test-app';

/**
 * Conditional reads (DESIGN §6): `GET …/summary` and `GET …/context` send an ETag that changes
 * whenever the answer would, and `If-None-Match` with a current tag is a 304 with no body — on
 * any instance, and never after the caller's own post.
 */
describe('conditional reads: ETag and If-None-Match on summary and context', () => {
  let t: TestApp;
  let other: { app: NestFastifyApplication; baseUrl: string };
  let alice: ApiClient;
  let aliceOnOther: ApiClient;
  const SUMMARY = '/api/v1/channels/cond/summary';
  const CONTEXT = '/api/v1/channels/cond/context';

  const read = (client: ApiClient, path: string, tag?: string) => client.get(path, tag ? { 'if-none-match': tag } : {});
  const post = (client: ApiClient, content: string) => client.post('/api/v1/channels/cond/messages', { type: 'STATUS', content });

  beforeAll(async () => {
    t = await startTestApp('conditional');
    other = await startAnotherInstance(t);
    alice = await t.agent('alice');
    aliceOnOther = new ApiClient(other.baseUrl, alice.token);
    expect((await alice.post('/api/v1/channels', { name: 'cond', summaryThreshold: 1000 })).status).toBe(201);
    expect((await post(alice, 'first')).status).toBe(201);
  });
  afterAll(async () => {
    await other?.app.close();
    await t?.close();
  });

  it.each([SUMMARY, CONTEXT])('%s: 200 with an ETag, then 304 with no body while nothing changed', async (path) => {
    const first = await read(alice, path);
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const again = await read(alice, path, tag);
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.headers.get('etag')).toBe(tag);
    // A weak form of the same tag, or a list naming it, matches too; another tag does not.
    expect((await read(alice, path, `"nope", W/${tag}`)).status).toBe(304);
    expect((await read(alice, path, '"nope"')).status).toBe(200);
  });

  it.each([SUMMARY, CONTEXT])('%s: a post changes the tag on this instance and the other', async (path) => {
    const tag = (await read(alice, path)).headers.get('etag')!;
    expect((await read(aliceOnOther, path, tag)).status).toBe(304); // the same tag on any instance
    expect((await post(alice, 'a post on the first instance')).status).toBe(201);
    const here = await read(alice, path, tag);
    const there = await read(aliceOnOther, path, tag);
    expect(here.status).toBe(200);
    expect(there.status).toBe(200);
    expect(here.headers.get('etag')).not.toBe(tag);
    expect(there.headers.get('etag')).toBe(here.headers.get('etag'));
  });

  it('never answers 304 after the caller’s own post, whichever instance it posted on and reads from', async () => {
    for (const [poster, reader] of [
      [alice, aliceOnOther],
      [aliceOnOther, alice],
      [alice, alice],
    ]) {
      const summaryTag = (await read(reader, SUMMARY)).headers.get('etag')!;
      const contextTag = (await read(reader, CONTEXT)).headers.get('etag')!;
      const posted = await post(poster, `mine ${Math.random()}`);
      const seq = posted.body.seq as number;
      const summary = await read(reader, SUMMARY, summaryTag);
      expect(summary.status).toBe(200);
      expect(summary.body.lastSeq).toBeGreaterThanOrEqual(seq);
      const context = await read(reader, CONTEXT, contextTag);
      expect(context.status).toBe(200);
      expect(context.body.lastSeq).toBeGreaterThanOrEqual(seq);
    }
  });

  it('the context tag depends on the parameters and the viewer; the summary tag on a new version', async () => {
    const plain = (await read(alice, CONTEXT)).headers.get('etag')!;
    const text = await read(alice, `${CONTEXT}?format=text`, plain);
    expect(text.status).toBe(200);
    expect(text.headers.get('etag')).not.toBe(plain);
    const bob = await t.agent('bob');
    expect((await read(bob, CONTEXT, plain)).status).toBe(200); // bob is the default viewer there

    const summaryTag = (await read(alice, SUMMARY)).headers.get('etag')!;
    expect((await alice.put(SUMMARY, { text: 'by hand' })).status).toBe(200);
    const afterOverride = await read(alice, SUMMARY, summaryTag);
    expect(afterOverride.status).toBe(200);
    expect(afterOverride.body.text).toBe('by hand');
  });

  it('a change that moves no seq and no version (a content epoch bump) still changes both tags', async () => {
    const summaryTag = (await read(alice, SUMMARY)).headers.get('etag')!;
    const contextTag = (await read(alice, CONTEXT)).headers.get('etag')!;
    await t.app.get(Database).query(`UPDATE channels SET content_epoch = content_epoch + 1 WHERE name = 'cond'`);
    expect((await read(alice, SUMMARY, summaryTag)).status).toBe(200);
    expect((await read(alice, CONTEXT, contextTag)).status).toBe(200);
  });

  it('a recorded summary error changes the summary tag (lastError is part of the answer)', async () => {
    const summaryTag = (await read(alice, SUMMARY)).headers.get('etag')!;
    await t.app.get(Database).query(
      `UPDATE channel_summaries SET last_error = 'model down', last_error_at = now() WHERE channel_id = (SELECT id FROM channels WHERE name = 'cond')`,
    );
    const after = await read(alice, SUMMARY, summaryTag);
    expect(after.status).toBe(200);
    expect(after.body.lastError).toBe('model down');
  });

  it('a private channel answers 404 to a non-member whatever tag it sends', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'secret-cond', members: ['alice'] })).status).toBe(201);
    const tag = (await alice.get('/api/v1/channels/secret-cond/summary')).headers.get('etag')!;
    const carol = await t.agent('carol');
    expect((await read(carol, '/api/v1/channels/secret-cond/summary', tag)).status).toBe(404);
    expect((await read(carol, '/api/v1/channels/secret-cond/context', '*')).status).toBe(404);
  });
});

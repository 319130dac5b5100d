import { AuditAction, AuditLog } from '../apps/channel-service/src/audit/audit-log.repository';
import { Database } from '../apps/channel-service/src/database/database';
import { ApiClient } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

const KEEP = 3;

/**
 * The audit log (DESIGN §10): append-only, recorded inside an operation's transaction (so a
 * rolled-back operation leaves no entry), read by the admin alone with `GET /audit?after=&limit=`;
 * and the summary's base version, which history pruning never drops.
 */
describe('audit log and the summary base version', () => {
  let t: TestApp;
  let alice: ApiClient;
  let db: Database;
  let audit: AuditLog;

  beforeAll(async () => {
    t = await startTestApp('auditlog', { inProcessQueue: true, env: { QHORUS_SUMMARY_HISTORY_KEEP: String(KEEP) } });
    alice = await t.agent('alice');
    db = t.app.get(Database);
    audit = t.app.get(AuditLog);
  });
  afterAll(() => t?.close());

  it('pages entries oldest first after an id, ids as integers, optional fields only when set', async () => {
    await audit.record({ actor: 'admin', action: AuditAction.DeleteChannel, channel: 'gone' });
    await audit.record({ actor: 'alice', action: AuditAction.Redact, channel: 'ops', seq: 7, reason: 'a key was pasted' });
    await audit.record({ actor: 'admin', action: AuditAction.RebuildSummary, channel: 'ops' });
    const all = await t.admin.get('/api/v1/audit');
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(3);
    const [first, second, third] = all.body;
    expect(typeof first.id).toBe('number');
    expect(first).toEqual({ id: first.id, at: expect.any(String), actor: 'admin', action: 'channel.delete', channel: 'gone' });
    expect(second).toEqual({ id: second.id, at: expect.any(String), actor: 'alice', action: 'message.redact', channel: 'ops', seq: 7, reason: 'a key was pasted' });
    expect(second.id).toBeGreaterThan(first.id);
    const page = await t.admin.get(`/api/v1/audit?after=${first.id}&limit=1`);
    expect(page.body.map((e: { id: number }) => e.id)).toEqual([second.id]);
    const rest = await t.admin.get(`/api/v1/audit?after=${second.id}&limit=10`);
    expect(rest.body.map((e: { id: number }) => e.id)).toEqual([third.id]);
    expect((await t.admin.get(`/api/v1/audit?after=${third.id}`)).body).toEqual([]);
  });

  it('an entry recorded inside a transaction that rolls back is not kept', async () => {
    const before = (await t.admin.get('/api/v1/audit?limit=1000')).body.length;
    await expect(
      db.transaction(async (tx) => {
        await audit.record({ actor: 'admin', action: AuditAction.DeleteChannel, channel: 'never' }, tx);
        throw new Error('the operation failed');
      }),
    ).rejects.toThrow('the operation failed');
    const after = (await t.admin.get('/api/v1/audit?limit=1000')).body;
    expect(after).toHaveLength(before);
    expect(after.some((e: { channel: string }) => e.channel === 'never')).toBe(false);
  });

  it('is append-only: the table refuses UPDATE, DELETE and TRUNCATE', async () => {
    await audit.record({ actor: 'admin', action: AuditAction.Archive, channel: 'kept' });
    const kept = (await t.admin.get('/api/v1/audit?limit=1000')).body.length;
    await expect(db.query(`UPDATE audit_log SET reason = 'rewritten'`)).rejects.toThrow(/append-only/);
    await expect(db.query(`DELETE FROM audit_log`)).rejects.toThrow(/append-only/);
    await expect(db.query(`TRUNCATE audit_log`)).rejects.toThrow(/append-only/);
    expect((await t.admin.get('/api/v1/audit?limit=1000')).body).toHaveLength(kept);
  });

  it('is for the admin alone (403) and refuses bad paging by name (400)', async () => {
    const refused = await alice.get('/api/v1/audit');
    expect(refused.status).toBe(403);
    for (const [field, value] of [['after', '-1'], ['after', 'x'], ['limit', '0'], ['limit', '1.5']]) {
      const res = await t.admin.get(`/api/v1/audit?${field}=${value}`);
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    expect((await t.admin.get('/api/v1/audit?channel=ops')).status).toBe(400);
  });

  it('history pruning keeps the base version however many versions follow it', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'based' })).status).toBe(201);
    const commit = async (v: number) => {
      await alice.post('/api/v1/channels/based/messages', { type: 'STATUS', content: `step ${v}` });
      expect((await alice.put('/api/v1/channels/based/summary', { text: `version ${v}` })).status).toBe(200);
    };
    await commit(1);
    await commit(2);
    await db.query(`UPDATE channel_summaries s SET base_version = 2 FROM channels c WHERE c.id = s.channel_id AND c.name = 'based'`);
    for (let v = 3; v <= 8; v++) await commit(v);
    const versions = (await alice.get('/api/v1/channels/based/summary/history')).body.map((h: { version: number }) => h.version);
    expect(versions).toEqual([8, 7, 6, 2]);
  });
});

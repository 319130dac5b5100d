import { McpCancellations } from '../../src/mcp/mcp-cancellations';
import { Principal } from '../../src/auth/principal';

const agent = (name: string): Principal => ({ kind: 'agent', name });
const call = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wait_for_messages', arguments: {} } });
const cancel = (requestId: number | string) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'gone' } });

describe('McpCancellations', () => {
  it('a cancel aborts the caller\'s running call with that id, not another agent\'s, not another id, not a number id by its string', () => {
    const c = new McpCancellations();
    const mine = c.track(agent('ann'), call(5));
    const other = c.track(agent('ben'), call(5));
    const later = c.track(agent('ann'), call(6));
    const text = c.track(agent('ann'), call('5'));
    c.track(agent('ann'), cancel(5)).done();
    expect([mine.signal.aborted, other.signal.aborted, later.signal.aborted, text.signal.aborted]).toEqual([true, false, false, false]);
  });

  it('forgets a call once done (a late cancel aborts nothing), and reads a batch body', () => {
    const c = new McpCancellations();
    const batch = c.track(agent('ann'), [call(1), call(2)]);
    expect(c.size).toBe(2);
    batch.done();
    expect(c.size).toBe(0);
    const next = c.track(agent('ann'), call(1));
    c.track(agent('ann'), [cancel(2), { not: 'json-rpc' }, null]).done();
    expect(next.signal.aborted).toBe(false);
    c.track(agent('ann'), cancel(1)).done();
    expect(next.signal.aborted).toBe(true);
  });
});

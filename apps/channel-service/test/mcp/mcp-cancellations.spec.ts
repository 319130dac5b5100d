import { McpCancellations } from '../../src/mcp/mcp-cancellations';
import { Principal } from '../../src/auth/principal';
import { InstanceBus } from '../../src/bus/instance-bus';
import { LocalInstanceBus } from '../../src/bus/local-instance-bus';

/** The instance bus between instances, in memory: every subscriber hears every publish, the sender too. */
function sharedBus() {
  const handlers = new Map<string, ((payload: string) => void)[]>();
  const sent: string[] = [];
  const bus = {
    maxPayloadBytes: 7_900,
    subscribe: async (topic: { name: string }, handler: (payload: string) => void) => {
      handlers.set(topic.name, [...(handlers.get(topic.name) ?? []), handler]);
      return async () => undefined;
    },
    publish: async (topic: { name: string }, payload: string) => {
      sent.push(payload);
      for (const h of handlers.get(topic.name) ?? []) h(payload);
    },
  };
  return { bus: bus as unknown as InstanceBus, sent };
}

const agent = (name: string): Principal => ({ kind: 'agent', name });
const call = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wait_for_messages', arguments: {} } });
const cancel = (requestId: number | string) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'gone' } });

describe('McpCancellations', () => {
  it('a cancel aborts the caller\'s running call with that id, not another agent\'s, not another id, not a number id by its string', () => {
    const c = new McpCancellations(new LocalInstanceBus());
    const mine = c.track(agent('ann'), call(5));
    const other = c.track(agent('ben'), call(5));
    const later = c.track(agent('ann'), call(6));
    const text = c.track(agent('ann'), call('5'));
    c.track(agent('ann'), cancel(5)).done();
    expect([mine.signal.aborted, other.signal.aborted, later.signal.aborted, text.signal.aborted]).toEqual([true, false, false, false]);
  });

  it('forgets a call once done (a late cancel aborts nothing), and reads a batch body', () => {
    const c = new McpCancellations(new LocalInstanceBus());
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

  it('a cancel received by another instance on the same database aborts the call where it runs (only that caller\'s, that id)', async () => {
    const { bus, sent } = sharedBus();
    const [a, b] = [new McpCancellations(bus), new McpCancellations(bus)];
    await Promise.all([a.listen(), b.listen()]);
    const runningOnA = a.track(agent('ann'), call(7));
    const bensOnA = a.track(agent('ben'), call(7));
    b.track(agent('ann'), cancel(7)).done();
    await new Promise((resolve) => setImmediate(resolve));
    expect([runningOnA.signal.aborted, bensOnA.signal.aborted]).toEqual([true, false]);
    expect(sent).toEqual([JSON.stringify(['agent', 'ann', 7])]);
  });

  it('keeps serving when it cannot listen: the call runs, cancellable on its own instance, and the next call tries again', async () => {
    let attempts = 0;
    const failing = {
      subscribe: async () => {
        attempts++;
        throw new Error('connection refused');
      },
      publish: async () => undefined,
      maxPayloadBytes: 7_900,
    } as unknown as InstanceBus;
    const c = new McpCancellations(failing);
    await expect(c.listen()).resolves.toBeUndefined();
    const local = c.track(agent('ann'), call(1));
    c.track(agent('ann'), cancel(1)).done();
    expect(local.signal.aborted).toBe(true);
    await c.listen();
    expect(attempts).toBe(2);
  });
});

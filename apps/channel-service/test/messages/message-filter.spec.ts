import { MessageType } from '@qhorus/api';
import { FilterableMessage, matchesFilter, NO_FILTER } from '../../src/messages/message-filter';

const message = (over: Partial<FilterableMessage> = {}): FilterableMessage => ({
  type: MessageType.STATUS,
  topic: 'general',
  sender: 'alice',
  correlationId: null,
  target: null,
  ...over,
});

describe('matchesFilter (what wakes a long poll; the same rule as the SQL)', () => {
  it('hides EVENT telemetry unless asked for, or named in the type list', () => {
    expect(matchesFilter(message(), NO_FILTER)).toBe(true);
    expect(matchesFilter(message({ type: MessageType.EVENT }), NO_FILTER)).toBe(false);
    expect(matchesFilter(message({ type: MessageType.EVENT }), { ...NO_FILTER, includeEvents: true })).toBe(true);
    expect(matchesFilter(message({ type: MessageType.EVENT }), { ...NO_FILTER, types: [MessageType.EVENT] })).toBe(true);
  });

  it('needs every given filter to match', () => {
    const m = message({ type: MessageType.QUERY, topic: 'build', sender: 'alice', correlationId: 'c1', target: 'bob' });
    const all = { ...NO_FILTER, types: [MessageType.COMMAND, MessageType.QUERY], topic: 'build', sender: 'alice', correlationId: 'c1', target: 'bob' };
    expect(matchesFilter(m, all)).toBe(true);
    for (const miss of [{ types: [MessageType.COMMAND] }, { topic: 'deploy' }, { sender: 'bob' }, { correlationId: 'c2' }, { target: 'carol' }]) {
      expect(matchesFilter(m, { ...all, ...miss })).toBe(false);
    }
    expect(matchesFilter(message({ target: null }), { ...NO_FILTER, target: 'bob' })).toBe(false);
  });
});

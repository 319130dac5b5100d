import { NO_NEW_OBSERVATIONS, TieredObservationRenderer } from '@qhorus/blocks-summarisation';
import { Item, items, renderItem } from './fixtures';

const renderer = new TieredObservationRenderer<Item>(renderItem, (item) => item.sender, 3, 10);

describe('TieredObservationRenderer', () => {
  it('says nothing happened for no items', () => {
    expect(renderer.render([])).toBe(NO_NEW_OBSERVATIONS);
  });

  it('renders up to t1 items verbatim', () => {
    expect(renderer.render(items(3))).toBe('- alice: message 1\n- bob: message 2\n- alice: message 3');
  });

  it('groups t1+1 .. t2 items by key with counts, busiest first', () => {
    const batch = items(4, ['bob', 'alice', 'alice', 'carol']);
    expect(renderer.render(batch)).toBe(
      '4 new items in 3 groups:\n- alice (2), latest: alice: message 3\n- bob (1), latest: bob: message 1\n- carol (1), latest: carol: message 4',
    );
    expect(renderer.render(items(10)).split('\n')).toHaveLength(3);
  });

  it('summarises beyond t2 in one paragraph of counts', () => {
    const batch = items(12, ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'd', 'e', 'f']);
    const text = renderer.render(batch);
    expect(text).toBe('12 new items since your last action, across 6 groups; most active: a (4), b (3), c (2) and 3 more.');
    expect(text).not.toContain('\n');
    expect(renderer.render(items(11, ['x']))).toBe('11 new items since your last action, across 1 group; most active: x (11).');
  });

  it('validates thresholds like the tiered summariser', () => {
    expect(() => new TieredObservationRenderer<Item>(renderItem, (i) => i.sender, 0, 3)).toThrow(RangeError);
    expect(() => new TieredObservationRenderer<Item>(renderItem, (i) => i.sender, 4, 3)).toThrow('t1=4, t2=3');
  });
});

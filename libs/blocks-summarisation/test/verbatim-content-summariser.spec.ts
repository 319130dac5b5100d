import { summaryResult } from '@qhorus/api';
import { VerbatimContentSummariser, overlayAnnotations, withoutAnnotations } from '@qhorus/blocks-summarisation';
import { Item, renderItem } from './fixtures';

describe('overlayAnnotations', () => {
  it('starts from the previous annotations and overlays only the own keys', () => {
    const previous = summaryResult('x', { tier: 'grouped', foreign: 'kept' });
    expect(overlayAnnotations(previous, { tier: 'verbatim' })).toEqual({ tier: 'verbatim', foreign: 'kept' });
  });

  it('treats a missing previous result as no annotations', () => {
    expect(overlayAnnotations(null, { a: '1' })).toEqual({ a: '1' });
    expect(overlayAnnotations(undefined, { a: '1' })).toEqual({ a: '1' });
  });

  it('does not mutate the previous annotations', () => {
    const previous = summaryResult('x', { a: '1' });
    overlayAnnotations(previous, { a: '2' });
    expect(previous.annotations).toEqual({ a: '1' });
  });

  it('withoutAnnotations removes only the named keys', () => {
    expect(withoutAnnotations({ a: '1', b: '2' }, ['a'])).toEqual({ b: '2' });
  });
});

describe('VerbatimContentSummariser', () => {
  const summariser = new VerbatimContentSummariser<Item>(renderItem);
  const batch: Item[] = [
    { sender: 'alice', text: 'hello' },
    { sender: 'bob', text: 'hi' },
  ];

  it('lists each item with no leading blank line on a first call', async () => {
    const result = await summariser.summarise(batch, null);
    expect(result.text).toBe('- alice: hello\n- bob: hi');
    expect(result.annotations).toEqual({ tier: 'verbatim', itemCount: '2' });
  });

  it('appends after the previous text and a blank line', async () => {
    const result = await summariser.summarise([batch[0]], summaryResult('Earlier state.'));
    expect(result.text).toBe('Earlier state.\n\n- alice: hello');
    expect(result.annotations.itemCount).toBe('1');
  });

  it('treats an empty previous text like no previous text', async () => {
    const result = await summariser.summarise([batch[1]], summaryResult(''));
    expect(result.text).toBe('- bob: hi');
  });

  it('keeps accumulated and foreign annotation keys', async () => {
    const previous = summaryResult('S', { tier: 'grouped', itemCount: '9', participants: '["alice"]', foreign: 'set by other code' });
    const result = await summariser.summarise(batch, previous);
    expect(result.annotations).toEqual({ tier: 'verbatim', itemCount: '2', participants: '["alice"]', foreign: 'set by other code' });
  });

  it('leaves the text unchanged for an empty batch', async () => {
    const result = await summariser.summarise([], summaryResult('S', { foreign: 'x' }));
    expect(result.text).toBe('S');
    expect(result.annotations).toEqual({ foreign: 'x', tier: 'verbatim', itemCount: '0' });
  });

  it('returns an immutable result', async () => {
    const result = await summariser.summarise(batch);
    expect(Object.isFrozen(result)).toBe(true);
    expect(Object.isFrozen(result.annotations)).toBe(true);
  });
});

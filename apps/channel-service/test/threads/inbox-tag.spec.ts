import { EMPTY_INBOX_TAG, inboxTag, noneMatchNames } from '../../src/threads/inbox-tag';

const item = (seq: number, ageSeconds: number, owner: string | null = 'alice') => ({
  channel: 'work',
  seq,
  correlationId: `c-${seq}`,
  type: 'QUERY',
  opener: 'bob',
  owner,
  reason: owner ? 'owed' : 'untargeted',
  content: 'Ship it?',
  openedAt: new Date(Date.UTC(2026, 11, 3, 8, 0, seq)),
  ageSeconds,
});

describe('inboxTag', () => {
  it('is the same for the same obligations however long they have waited', () => {
    expect(inboxTag({ items: [item(1, 0)], total: 1 })).toBe(inboxTag({ items: [item(1, 3600)], total: 1 }));
  });

  it('changes with an obligation added, removed, handed to someone else, or the total behind a cut page', () => {
    const base = inboxTag({ items: [item(1, 0)], total: 1 });
    expect(inboxTag({ items: [item(1, 0), item(2, 0)], total: 2 })).not.toBe(base);
    expect(inboxTag({ items: [], total: 0 })).not.toBe(base);
    expect(inboxTag({ items: [item(1, 0, null)], total: 1 })).not.toBe(base);
    expect(inboxTag({ items: [item(1, 0)], total: 2 })).not.toBe(base);
  });

  it('tells dates apart (a Date is not hashed as an empty object)', () => {
    const later = { ...item(1, 0), openedAt: new Date(Date.UTC(2027, 0, 1)) };
    expect(inboxTag({ items: [later], total: 1 })).not.toBe(inboxTag({ items: [item(1, 0)], total: 1 }));
  });

  it('is a quoted strong ETag; an empty inbox has its own', () => {
    expect(EMPTY_INBOX_TAG).toMatch(/^"[A-Za-z0-9_-]{24}"$/);
    expect(inboxTag({ items: [], total: 0 })).toBe(EMPTY_INBOX_TAG);
  });
});

describe('noneMatchNames', () => {
  const tag = '"abc"';
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['*', true],
    ['"abd"', false],
    ['abc', false],
  ])('If-None-Match %s names %s: %s', (header, expected) => {
    expect(noneMatchNames(header, tag)).toBe(expected);
  });
});

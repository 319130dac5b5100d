import { BadRequestException } from '@nestjs/common';
import { decodeCursor, encodeCursor, searchFingerprint } from '../../src/search/search-cursor';
import { boundSnippet, ELLIPSIS, MATCH_END, MATCH_START } from '../../src/search/search-snippet';

describe('search cursor', () => {
  const fingerprint = searchFingerprint(['retry', null, null, null, false]);

  it('gives back the position it was made from, rank text exactly', () => {
    const position = { rank: '1e-05', channel: 'ops.team-1', seq: 42 };
    expect(decodeCursor(encodeCursor(position, fingerprint), fingerprint)).toEqual(position);
  });

  it('refuses a cursor of another search, naming cursor', () => {
    const cursor = encodeCursor({ rank: '0.1', channel: 'ops', seq: 1 }, fingerprint);
    const other = searchFingerprint(['retry', 'ops', null, null, false]);
    expect(() => decodeCursor(cursor, other)).toThrow(/cursor belongs to another search/);
  });

  it.each([
    ['not base64 JSON', 'not-a-cursor'],
    ['a rank that is not a number', Buffer.from(JSON.stringify({ v: 1, r: '0.1; DROP', c: 'ops', s: 1, f: 'x' })).toString('base64url')],
    ['a channel that is not a slug', Buffer.from(JSON.stringify({ v: 1, r: '0.1', c: 'Ops!', s: 1, f: 'x' })).toString('base64url')],
    ['a seq below 1', Buffer.from(JSON.stringify({ v: 1, r: '0.1', c: 'ops', s: 0, f: 'x' })).toString('base64url')],
    ['another version', Buffer.from(JSON.stringify({ v: 2, r: '0.1', c: 'ops', s: 1, f: 'x' })).toString('base64url')],
    ['JSON that is not an object', Buffer.from('null').toString('base64url')],
  ])('refuses %s as malformed', (_what, cursor) => {
    let thrown: unknown;
    try {
      decodeCursor(cursor, fingerprint);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(BadRequestException);
    expect((thrown as BadRequestException).getResponse()).toMatchObject({ details: [{ field: 'cursor', problems: [expect.stringContaining('malformed')] }] });
  });
});

describe('snippet bound', () => {
  it('leaves a short snippet as it is', () => {
    expect(boundSnippet(`a ${MATCH_START}b${MATCH_END} c`, 40)).toBe(`a ${MATCH_START}b${MATCH_END} c`);
  });

  it('cuts a long one to the bound in characters, closing a cut mark', () => {
    const long = `${MATCH_START}${'字'.repeat(100)}${MATCH_END}`;
    const cut = boundSnippet(long, 40);
    expect([...cut]).toHaveLength(40);
    expect(cut.endsWith(`${MATCH_END}${ELLIPSIS}`)).toBe(true);
  });
});

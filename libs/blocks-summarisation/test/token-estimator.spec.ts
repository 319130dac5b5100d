import fc from 'fast-check';
import { LATIN_CHARS_PER_TOKEN, estimateTokenParts, estimateTokens, estimateTokensOfAll } from '@qhorus/blocks-summarisation';

describe('estimateTokens', () => {
  it('is 0 for empty or whitespace-only text', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('  \n\t ')).toBe(0);
  });

  it('counts one token per CJK character', () => {
    expect(estimateTokens('你好世界')).toBe(4); // Han
    expect(estimateTokens('こんにちは')).toBe(5); // Hiragana
    expect(estimateTokens('カタカナ')).toBe(4); // Katakana
    expect(estimateTokens('안녕하세요')).toBe(5); // Hangul
    expect(estimateTokens('ＡＢＣ！')).toBe(4); // fullwidth forms
    expect(estimateTokens('会議は終わりました。')).toBe(10); // incl. CJK punctuation
  });

  it('counts Latin text at about four characters per token', () => {
    const text = 'The deployment of the summarisation service finished without errors yesterday evening.';
    expect(estimateTokens(text)).toBe(Math.ceil(text.length / LATIN_CHARS_PER_TOKEN));
    const long = 'lorem ipsum dolor sit amet '.repeat(40);
    expect(estimateTokens(long)).toBeGreaterThanOrEqual(long.length / LATIN_CHARS_PER_TOKEN);
    expect(estimateTokens(long)).toBeLessThanOrEqual(long.length / 2);
  });

  it('counts at least one token per short word and per punctuation mark', () => {
    expect(estimateTokens('a b c d e')).toBe(5);
    expect(estimateTokens('ok?!')).toBe(3);
  });

  it('adds both estimates for mixed text', () => {
    // 3 CJK characters + "Deploy  OK" (10 other chars: max(ceil(10/4)=3, 2 words) = 3)
    expect(estimateTokens('Deploy 完成了 OK')).toBe(3 + 3);
    // CJK separates words: "使用React框架" = 4 CJK + "React" (5 chars → 2 tokens)
    expect(estimateTokens('使用React框架')).toBe(4 + 2);
    const mixed = '会议决定：ship v2 on Friday';
    expect(estimateTokens(mixed)).toBeGreaterThan(estimateTokens('会议决定：'));
    expect(estimateTokens(mixed)).toBeGreaterThan(estimateTokens('ship v2 on Friday'));
  });

  it('estimates CJK text much higher per character than Latin text', () => {
    const cjk = '这是一个关于多代理系统的频道摘要';
    const latin = 'abcdefghijklmnopqrstuvwxyzabcdef'.slice(0, cjk.length);
    expect(estimateTokens(cjk)).toBeGreaterThan(3 * estimateTokens(latin));
  });

  it('is a non-negative integer for any text, and n for n CJK characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const n = estimateTokens(text);
        return Number.isInteger(n) && n >= 0;
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.constantFrom('漢', 'ひ', 'カ', '한', '。'), { maxLength: 50 }), (chars) => estimateTokens(chars.join('')) === chars.length),
    );
  });

  it('estimateTokensOfAll sums the texts', () => {
    expect(estimateTokensOfAll(['你好', 'a b', ''])).toBe(2 + 2);
    expect(estimateTokensOfAll([])).toBe(0);
  });
});

/** The per-character loop, as the estimator was written before its no-CJK fast path. */
function referenceParts(text: string) {
  const cjkChar = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303F\uFF00-\uFFEF]/u;
  let cjk = 0;
  let otherChars = 0;
  let other = '';
  for (const char of text) {
    if (cjkChar.test(char)) {
      cjk += 1;
      other += ' ';
    } else {
      otherChars += 1;
      other += char;
    }
  }
  return { cjk, otherChars, pieces: other.match(/[\p{L}\p{N}\p{M}]+|[^\s\p{L}\p{N}\p{M}]/gu)?.length ?? 0 };
}

describe('estimateTokenParts fast path', () => {
  it('gives the per-character loop\'s answer for any text, with or without CJK, surrogates included', () => {
    const mixed = fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('漢字', 'ひらがな', '한국어', '。', '😀', 'a b', '\u0301')), { maxLength: 8 }).map((xs) => xs.join(''));
    fc.assert(fc.property(fc.oneof(fc.string({ unit: 'binary' }), mixed), (text) => {
      expect(estimateTokenParts(text)).toEqual(referenceParts(text));
    }), { numRuns: 2000 });
  });
});

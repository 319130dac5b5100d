/** Latin-script text averages about four characters per token. */
export const LATIN_CHARS_PER_TOKEN = 4;
/** CJK scripts average about one token per character. */
export const CJK_TOKENS_PER_CHAR = 1;

/** Han, Hiragana, Katakana, Hangul, CJK symbols/punctuation and full/halfwidth forms. */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303F\uFF00-\uFFEF]/u;
/** Words (letters/digits) and single punctuation or symbol characters. */
const LATIN_PIECE = /[\p{L}\p{N}\p{M}]+|[^\s\p{L}\p{N}\p{M}]/gu;

/**
 * What `estimateTokens` counts in a text: CJK characters, other characters, and the words or
 * punctuation marks among the others. Kept apart so a caller can add characters it knows only
 * later (e.g. a seq allocated by the database) and still get the estimator's exact answer.
 */
export interface TokenEstimateParts {
  cjk: number;
  otherChars: number;
  pieces: number;
}

/** A UTF-16 high surrogate: only then does the code point count differ from `length`. */
const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

export function estimateTokenParts(text: string): TokenEstimateParts {
  // Most agent text has no CJK (CJK_CHAR is unanchored: it finds one anywhere): one scan instead of a test and a string append per character
  // (the post path estimates every message; same answer, property-tested against the loop).
  if (!CJK_CHAR.test(text)) {
    const otherChars = HIGH_SURROGATE.test(text) ? [...text].length : text.length;
    return { cjk: 0, otherChars, pieces: text.match(LATIN_PIECE)?.length ?? 0 };
  }
  let cjk = 0;
  let otherChars = 0;
  let other = '';
  for (const char of text) {
    if (CJK_CHAR.test(char)) {
      cjk += 1;
      other += ' '; // a CJK character separates the words around it
    } else {
      otherChars += 1;
      other += char;
    }
  }
  return { cjk, otherChars, pieces: other.match(LATIN_PIECE)?.length ?? 0 };
}

/** The estimate of a text from its parts (see `estimateTokens`). */
export function tokensFromParts({ cjk, otherChars, pieces }: TokenEstimateParts): number {
  const latin = pieces === 0 ? 0 : Math.max(Math.ceil(otherChars / LATIN_CHARS_PER_TOKEN), pieces);
  return cjk * CJK_TOKENS_PER_CHAR + latin;
}

/**
 * Estimates how many tokens a model needs for `text`, without a tokenizer. CJK characters
 * count one token each; other text counts ~LATIN_CHARS_PER_TOKEN characters per token but at
 * least one token per word or punctuation mark (short words and symbols are never free).
 * Meant for budgets and triggers: cheap, deterministic, slightly pessimistic.
 */
export function estimateTokens(text: string): number {
  return tokensFromParts(estimateTokenParts(text));
}

/** Sum of `estimateTokens` over several texts (e.g. the messages of a context window). */
export function estimateTokensOfAll(texts: Iterable<string>): number {
  let total = 0;
  for (const text of texts) total += estimateTokens(text);
  return total;
}

import Anthropic from '@anthropic-ai/sdk';
import { SummaryResult, summaryResult } from '@qhorus/api';
import {
  APPEND_SECTION_SHARE,
  capText,
  foldOldestSections,
  LlmContentSummariser,
  LlmSummaryMode,
  SECTION_SEPARATOR,
  SUMMARY_TEXT_MIN_CHARS,
  TEXT_CUT_MARKER,
  VerbatimContentSummariser,
} from '@qhorus/blocks-summarisation';
import { FakeAnthropic, startFakeAnthropic } from './fake-anthropic-server';
import { Item, renderItem } from './fixtures';

const CAP = 400;
const item = (i: number, words = 3): Item => ({ sender: `agent${i % 3}`, text: `message ${i} ${'word '.repeat(words).trim()}` });

describe('capText', () => {
  it('leaves a text within the cap alone', () => {
    expect(capText('short\ntext', CAP)).toEqual({ text: 'short\ntext', cut: false });
  });

  it('cuts at a line boundary, ends with the marker, and stays within the cap', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i} of the answer`);
    const { text, cut } = capText(lines.join('\n'), CAP);
    expect(cut).toBe(true);
    expect(text.length).toBeLessThanOrEqual(CAP);
    const kept = text.split('\n');
    expect(kept[kept.length - 1]).toBe(TEXT_CUT_MARKER);
    expect(kept.slice(0, -1)).toEqual(lines.slice(0, kept.length - 1));
  });

  it('cuts inside a first line that alone is longer than the cap', () => {
    const { text, cut } = capText('z'.repeat(CAP * 2), CAP);
    expect(cut).toBe(true);
    expect(text.length).toBeLessThanOrEqual(CAP);
    expect(text.endsWith(`\n${TEXT_CUT_MARKER}`)).toBe(true);
  });
});

describe('VerbatimContentSummariser within the cap', () => {
  const summariser = new VerbatimContentSummariser<Item>(renderItem, { maxChars: CAP });

  it('rejects a cap below the minimum', () => {
    expect(() => new VerbatimContentSummariser<Item>(renderItem, { maxChars: SUMMARY_TEXT_MIN_CHARS - 1 })).toThrow(RangeError);
  });

  it('keeps the newest items that fit, in order, and says how many earlier ones it left out, across calls', async () => {
    let previous: SummaryResult | null = null;
    const all: string[] = [];
    for (let step = 0; step < 30; step++) {
      const batch = [item(step * 2), item(step * 2 + 1)];
      all.push(...batch.map((b) => `- ${renderItem(b)}`));
      previous = await summariser.summarise(batch, previous);
      expect(previous.text.length).toBeLessThanOrEqual(CAP);
      expect(previous.annotations.itemCount).toBe('2');
      expect(previous.annotations).not.toHaveProperty('textTruncated');
    }
    const lines = previous!.text.split('\n');
    const marker = /^… (\d+) earlier items left out$/.exec(lines[0]);
    expect(marker).not.toBeNull();
    const shown = lines.slice(1).filter((line) => line !== ''); // batches are separated by a blank line
    // Exactly the newest items, and the count accounts for every other one.
    expect(shown).toEqual(all.slice(all.length - shown.length));
    expect(Number(marker![1]) + shown.length).toBe(all.length);
  });

  it('counts another tier’s text it had to leave out as earlier text', async () => {
    const previous = summaryResult('A summary written by another tier.\nSecond line.', { tier: 'grouped' });
    const batch = Array.from({ length: 12 }, (_, i) => item(i, 6));
    const result = await summariser.summarise(batch, previous);
    expect(result.text.length).toBeLessThanOrEqual(CAP);
    expect(result.text).toMatch(/^… earlier text and \d+ earlier items left out\n/);
    expect(result.text.endsWith(renderItem(batch[batch.length - 1]))).toBe(true);
  });

  it('cuts a single newest item that alone is longer than the cap, flagged', async () => {
    const result = await summariser.summarise([{ sender: 'x', text: 'long '.repeat(200) }], null);
    expect(result.text.length).toBeLessThanOrEqual(CAP);
    expect(result.text.endsWith(TEXT_CUT_MARKER)).toBe(true);
    expect(result.annotations.textTruncated).toBe('true');
  });
});

describe('foldOldestSections', () => {
  const sections = Array.from({ length: 12 }, (_, i) => `Section ${i}: ${'detail '.repeat(8).trim()}`);

  it('returns the text itself when it leaves the room', () => {
    expect(foldOldestSections('one\n\ntwo', 10, CAP)).toBe('one\n\ntwo');
  });

  it('folds the oldest sections away, keeps the newest byte-identical, and counts across calls', () => {
    const once = foldOldestSections(sections.join(SECTION_SEPARATOR), 100, CAP);
    expect(once.length + SECTION_SEPARATOR.length + 100).toBeLessThanOrEqual(CAP);
    const [marker, ...rest] = once.split(SECTION_SEPARATOR);
    const folded = Number(/^… (\d+) earlier sections? left out/.exec(marker)![1]);
    expect(rest).toEqual(sections.slice(folded));
    const twice = foldOldestSections(`${once}${SECTION_SEPARATOR}${'new '.repeat(20)}`, 150, CAP);
    const again = Number(/^… (\d+) earlier sections? left out/.exec(twice.split(SECTION_SEPARATOR)[0])![1]);
    expect(again).toBeGreaterThan(folded);
    expect(twice.length + SECTION_SEPARATOR.length + 150).toBeLessThanOrEqual(CAP);
  });
});

describe('LlmContentSummariser within the cap (real SDK against the local Messages API)', () => {
  let server: FakeAnthropic | null = null;
  let answer = '';
  afterEach(async () => {
    await server?.close();
    server = null;
  });
  async function llm(mode: LlmSummaryMode) {
    server = await startFakeAnthropic(() => answer);
    return new LlmContentSummariser<Item>(new Anthropic({ apiKey: 'test', baseURL: server.baseURL }), renderItem, mode, { model: 'm', maxChars: CAP });
  }
  const prompt = (i: number): string => server!.requests[i].body.messages[0].content;

  it('APPEND folds the oldest sections before the text would cross the cap; the previous text in every prompt is within the cap', async () => {
    const summariser = await llm(LlmSummaryMode.APPEND);
    let previous: SummaryResult | null = null;
    for (let step = 0; step < 20; step++) {
      answer = `Update ${step}: ${'things happened '.repeat(4).trim()}.`;
      previous = await summariser.summarise([item(step)], previous);
      expect(previous.text.length).toBeLessThanOrEqual(CAP);
      expect(previous.text.endsWith(answer)).toBe(true);
      expect(previous.annotations).not.toHaveProperty('textTruncated');
      const current = /Current summary:\n([\s\S]*?)\n\nNew items/.exec(prompt(step))?.[1] ?? '';
      expect(current.length).toBeLessThanOrEqual(CAP);
      expect(prompt(step)).toContain(`Length limit: at most ${Math.floor(CAP / APPEND_SECTION_SHARE)} characters.`);
    }
    expect(previous!.text).toMatch(/^… \d+ earlier sections left out to stay within the length limit\n\n/);
  });

  it('EDIT asks for a text within the cap; a longer answer is cut at a line boundary with a marker and flagged, not a failure', async () => {
    const summariser = await llm(LlmSummaryMode.EDIT);
    answer = Array.from({ length: 40 }, (_, i) => `Point ${i}: still relevant.`).join('\n');
    const cut = await summariser.summarise([item(1)], null);
    expect(prompt(0)).toContain(`Length limit: at most ${CAP} characters.`);
    expect(cut.text.length).toBeLessThanOrEqual(CAP);
    expect(cut.text.endsWith(`\n${TEXT_CUT_MARKER}`)).toBe(true);
    expect(answer.startsWith(cut.text.slice(0, -TEXT_CUT_MARKER.length - 1))).toBe(true);
    expect(cut.annotations).toMatchObject({ textTruncated: 'true', model: 'm', tier: 'synthesised' });

    answer = 'Short again.';
    const next = await summariser.summarise([item(2)], cut);
    expect(next.text).toBe('Short again.');
    expect(next.annotations).not.toHaveProperty('textTruncated');
  });

  it('APPEND cuts a section longer than the whole cap, flagged', async () => {
    const summariser = await llm(LlmSummaryMode.APPEND);
    answer = Array.from({ length: 60 }, (_, i) => `Line ${i}.`).join('\n');
    const result = await summariser.summarise([item(1)], summaryResult('Old section.'));
    expect(result.text.length).toBeLessThanOrEqual(CAP);
    expect(result.text.endsWith(TEXT_CUT_MARKER)).toBe(true);
    expect(result.annotations.textTruncated).toBe('true');
  });

  it('puts the grounding in the prompt as the authoritative state', async () => {
    const summariser = await llm(LlmSummaryMode.EDIT);
    answer = 'ok';
    await summariser.summarise([item(1)], null, { grounding: [{ title: 'Open requests (1)', lines: ['#4 QUERY ann→ben: who?'] }, { title: 'Decisions (0)', lines: [] }] });
    expect(prompt(0)).toContain('Current state (tracked from every message; authoritative):\nOpen requests (1):\n- #4 QUERY ann→ben: who?\nDecisions (0):\n- none');
    expect(server!.requests[0].body.system).toMatch(/name as open exactly the requests it lists as open/);
  });
});

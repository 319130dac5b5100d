import Anthropic from '@anthropic-ai/sdk';
import { summaryResult } from '@qhorus/api';
import {
  LlmContentSummariser,
  LlmSummaryMode,
  SummariserUnavailableError,
  TIER_FALLBACK_REASON_MAX_CHARS,
  TieredContentSummariser,
  VerbatimContentSummariser,
} from '@qhorus/blocks-summarisation';
import { FakeAnthropic, replyError, startFakeAnthropic } from './fake-anthropic-server';
import { FakeGroupedSummariser, Item, PARTICIPANTS, RecordingSummariser, items, renderItem } from './fixtures';

const T1 = 3;
const T2 = 10;

function recordingTiers() {
  const small = new RecordingSummariser<Item>('small');
  const medium = new RecordingSummariser<Item>('medium');
  const large = new RecordingSummariser<Item>('large');
  return { small, medium, large, tiered: new TieredContentSummariser(small, medium, large, T1, T2) };
}

describe('TieredContentSummariser', () => {
  it.each([
    [1, 'small'],
    [3, 'small'],
    [4, 'medium'],
    [10, 'medium'],
    [11, 'large'],
    [50, 'large'],
  ])('routes a batch of %i items (t1=3, t2=10) to the %s tier', async (size, tier) => {
    const { tiered, small, medium, large } = recordingTiers();
    expect(tiered.tierFor(size)).toBe(tier);
    const result = await tiered.summarise(items(size), null);
    expect(result.text).toBe(`${tier}(${size})`);
    expect({ small: small.calls.length, medium: medium.calls.length, large: large.calls.length }).toEqual({
      small: tier === 'small' ? 1 : 0,
      medium: tier === 'medium' ? 1 : 0,
      large: tier === 'large' ? 1 : 0,
    });
  });

  it('sends an empty batch to the small tier', async () => {
    const { tiered, small } = recordingTiers();
    await tiered.summarise([], null);
    expect(small.calls).toHaveLength(1);
  });

  it('passes previous and options through to the chosen tier', async () => {
    const { tiered, medium } = recordingTiers();
    const previous = summaryResult('P', { foreign: 'x' });
    await tiered.summarise(items(5), previous, { preamble: 'purpose' });
    expect(medium.calls[0].previous).toBe(previous);
    expect(medium.calls[0].options).toEqual({ preamble: 'purpose' });
  });

  it.each([
    [0, 5],
    [-1, 5],
    [5, 4],
    [Number.NaN, 5],
    [3, Number.NaN],
  ])('rejects thresholds t1=%p, t2=%p with a RangeError naming them', (t1, t2) => {
    const s = new RecordingSummariser<Item>('s');
    expect(() => new TieredContentSummariser(s, s, s, t1, t2)).toThrow(RangeError);
    expect(() => new TieredContentSummariser(s, s, s, t1, t2)).toThrow(`t1=${t1}, t2=${t2}`);
  });

  it('accepts t1 = t2 = 1', () => {
    const s = new RecordingSummariser<Item>('s');
    expect(() => new TieredContentSummariser(s, s, s, 1, 1)).not.toThrow();
  });

  it('twoTier: ≤ threshold → small, else large; large failures fall back to small', async () => {
    const small = new RecordingSummariser<Item>('small');
    const large = new RecordingSummariser<Item>('large');
    const tiered = TieredContentSummariser.twoTier(small, large, 5);
    expect((await tiered.summarise(items(5), null)).text).toBe('small(5)');
    expect((await tiered.summarise(items(6), null)).text).toBe('large(6)');
    large.error = new Error('down');
    const fallback = await tiered.summarise(items(6), null);
    expect(fallback.text).toBe('small(6)');
    expect(fallback.annotations.tierFallback).toBe('large->medium: down');
    expect(() => TieredContentSummariser.twoTier(small, large, 0)).toThrow(RangeError);
  });

  describe('large-tier fallback', () => {
    it('uses the medium tier when the large tier is unavailable, and says so', async () => {
      const { tiered, medium, large } = recordingTiers();
      large.error = new SummariserUnavailableError('no API key');
      const previous = summaryResult('P', { foreign: 'x' });
      const result = await tiered.summarise(items(11), previous);
      expect(result.text).toBe('medium(11)');
      expect(result.annotations).toEqual({ foreign: 'x', tier: 'medium', tierFallback: 'large->medium: no API key' });
      expect(medium.calls[0].previous).toBe(previous);
    });

    it('keeps tierFallback through small batches and removes it when the large tier succeeds again', async () => {
      const { tiered, large } = recordingTiers();
      large.error = new Error('HTTP 500');
      let result = await tiered.summarise(items(11), null);
      expect(result.annotations.tierFallback).toBe('large->medium: HTTP 500');
      result = await tiered.summarise(items(2), result);
      expect(result.annotations.tierFallback).toBe('large->medium: HTTP 500');
      large.error = null;
      result = await tiered.summarise(items(11), result);
      expect(result.text).toBe('large(11)');
      expect(result.annotations).not.toHaveProperty('tierFallback');
    });

    it('bounds the recorded reason to one short line', async () => {
      const { tiered, large } = recordingTiers();
      large.error = new Error(`line one\nline two ${'x'.repeat(1000)}`);
      const reason = (await tiered.summarise(items(11), null)).annotations.tierFallback;
      expect(reason).not.toContain('\n');
      expect(reason.length).toBeLessThanOrEqual('large->medium: '.length + TIER_FALLBACK_REASON_MAX_CHARS);
    });

    it('rejects when the medium fallback fails too', async () => {
      const { tiered, medium, large } = recordingTiers();
      large.error = new Error('large down');
      medium.error = new Error('medium down');
      await expect(tiered.summarise(items(11), null)).rejects.toThrow(/large down.*medium down/);
    });

    it('does not fall back when the small or medium tier fails', async () => {
      const { tiered, medium, large } = recordingTiers();
      medium.error = new Error('medium down');
      await expect(tiered.summarise(items(5), null)).rejects.toThrow('medium down');
      expect(large.calls).toHaveLength(0);
    });
  });

  describe('verbatim → grouped → synthesised → verbatim, with the real LLM tier', () => {
    let server: FakeAnthropic | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    it('keeps accumulated participants and a foreign key across every tier change', async () => {
      server = await startFakeAnthropic((request) =>
        request.body.messages[0].content.includes('Current summary:') ? 'Synthesised: alice, bob, carol and dave agreed.' : 'unexpected',
      );
      const llm = new LlmContentSummariser<Item>(new Anthropic({ apiKey: 'test', baseURL: server.baseURL }), renderItem, LlmSummaryMode.EDIT, {
        model: 'claude-haiku-4-5',
      });
      const tiered = new TieredContentSummariser(new VerbatimContentSummariser(renderItem), new FakeGroupedSummariser(), llm, T1, T2);
      const start = summaryResult('', { foreign: 'owned by someone else' });

      const s1 = await tiered.summarise(items(2, ['alice']), start, { preamble: 'demo' });
      expect(s1.annotations).toEqual({ foreign: 'owned by someone else', tier: 'verbatim', itemCount: '2' });
      expect(s1.text).toBe('- alice: message 1\n- alice: message 2');

      const s2 = await tiered.summarise(items(5, ['bob', 'carol']), s1, { preamble: 'demo' });
      expect(s2.annotations).toEqual({ foreign: 'owned by someone else', tier: 'grouped', itemCount: '5', [PARTICIPANTS]: '["bob","carol"]' });

      const s3 = await tiered.summarise(items(12, ['dave', 'bob']), s2, { preamble: 'demo' });
      expect(s3.text).toBe('Synthesised: alice, bob, carol and dave agreed.');
      expect(s3.annotations).toEqual({
        foreign: 'owned by someone else',
        tier: 'synthesised',
        itemCount: '12',
        provider: 'anthropic',
        model: 'claude-haiku-4-5',
        [PARTICIPANTS]: '["bob","carol"]',
      });
      expect(server!.requests).toHaveLength(1);
      expect(server!.requests[0].body.messages[0].content).toContain('Channel purpose: demo');
      expect(server!.requests[0].body.messages[0].content).toContain('New items (12):');

      const s4 = await tiered.summarise(items(1, ['erin']), s3);
      expect(s4.text).toBe('Synthesised: alice, bob, carol and dave agreed.\n\n- erin: message 1');
      expect(s4.annotations).toEqual({
        foreign: 'owned by someone else',
        tier: 'verbatim',
        itemCount: '1',
        provider: 'anthropic',
        model: 'claude-haiku-4-5',
        [PARTICIPANTS]: '["bob","carol"]',
      });
    });

    it('falls back to the grouped tier on an HTTP 500 and recovers afterwards', async () => {
      let fail = true;
      server = await startFakeAnthropic(() => (fail ? replyError(500, 'boom') : 'Recovered summary.'));
      const llm = new LlmContentSummariser<Item>(new Anthropic({ apiKey: 'test', baseURL: server.baseURL }), renderItem, LlmSummaryMode.EDIT, {
        model: 'claude-haiku-4-5',
      });
      const tiered = new TieredContentSummariser(new VerbatimContentSummariser(renderItem), new FakeGroupedSummariser(), llm, T1, T2);

      const failed = await tiered.summarise(items(11), summaryResult('', { foreign: 'f' }));
      expect(failed.annotations.tier).toBe('grouped');
      expect(failed.annotations.tierFallback).toMatch(/^large->medium: .*HTTP 500/);
      expect(failed.annotations.foreign).toBe('f');

      fail = false;
      const recovered = await tiered.summarise(items(11), failed);
      expect(recovered.text).toBe('Recovered summary.');
      expect(recovered.annotations.tier).toBe('synthesised');
      expect(recovered.annotations).not.toHaveProperty('tierFallback');
      expect(recovered.annotations[PARTICIPANTS]).toBe('["alice","bob"]');
    });

    it('uses the grouped tier when there is no API key', async () => {
      const llm = new LlmContentSummariser<Item>(null, renderItem, LlmSummaryMode.EDIT, { model: 'claude-haiku-4-5' });
      const tiered = new TieredContentSummariser(new VerbatimContentSummariser(renderItem), new FakeGroupedSummariser(), llm, T1, T2);
      const result = await tiered.summarise(items(11), null);
      expect(result.annotations.tier).toBe('grouped');
      expect(result.annotations.tierFallback).toMatch(/^large->medium: LLM summariser unavailable/);
    });
  });
});

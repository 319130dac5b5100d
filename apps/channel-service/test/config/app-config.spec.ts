import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig, ConfigValidationError, loadConfig, MAX_TIMER_MS, SUMMARY_FAILURE_BACKOFF_SWEEP_INTERVALS } from '../../src/config/app-config';
import { CONFIG_DEFAULTS, OPTIONAL_KNOBS, TUNING_KNOBS } from '../../src/config/config-defaults';
import { trustProxySetting } from '../../src/config/trust-proxy';

describe('loadConfig', () => {
  it('applies the named defaults when nothing is set', () => {
    const config = loadConfig({});
    for (const [key, value] of Object.entries(CONFIG_DEFAULTS)) expect(config[key as keyof AppConfig]).toBe(value);
    expect(config.embeddedDatabase).toBe(true);
    expect(config.inProcessQueue).toBe(true);
  });

  it('parses numbers and keeps URLs', () => {
    const config = loadConfig({ PORT: '8080', DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://r', QHORUS_ROLE: 'api' });
    expect(config.PORT).toBe(8080);
    expect(config.embeddedDatabase).toBe(false);
    expect(config.runsWorker).toBe(false);
  });

  it('reads an empty value (`NAME=`, as .env.example writes unset knobs) as unset: the default', () => {
    const blank = Object.fromEntries([...Object.keys(CONFIG_DEFAULTS), 'DATABASE_URL', 'REDIS_URL', 'ANTHROPIC_API_KEY'].map((key) => [key, key === 'HOST' ? '  ' : '']));
    const config = loadConfig(blank);
    for (const [key, value] of Object.entries(CONFIG_DEFAULTS)) expect([key, config[key as keyof AppConfig]]).toEqual([key, value]);
    expect(config.embeddedDatabase).toBe(true);
  });

  it('refuses a timer longer than Node.js can set (it would fire every millisecond), and a database or Redis URL of the wrong kind', () => {
    expect(() => loadConfig({ QHORUS_SWEEP_INTERVAL_MS: String(MAX_TIMER_MS + 1) })).toThrow(/QHORUS_SWEEP_INTERVAL_MS: QHORUS_SWEEP_INTERVAL_MS must be at most 2147483647 \(the longest timer Node.js can set/);
    expect(loadConfig({ QHORUS_SWEEP_INTERVAL_MS: String(MAX_TIMER_MS) }).QHORUS_SWEEP_INTERVAL_MS).toBe(MAX_TIMER_MS);
    expect(() => loadConfig({ REDIS_URL: 'notaurl' })).toThrow(/REDIS_URL: REDIS_URL must be a redis:\/\/ \(or rediss:\/\/\) URL/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x/y' })).toThrow(/DATABASE_URL: DATABASE_URL must be a postgres:\/\//);
    expect(loadConfig({ DATABASE_URL: 'postgresql://x/y', REDIS_URL: 'rediss://r:6380' }).embeddedDatabase).toBe(false);
  });

  it('fails fast naming every bad knob', () => {
    expect(() => loadConfig({ PORT: 'eighty', QHORUS_ROLE: 'boss', QHORUS_SUMMARY_THRESHOLD: '0' })).toThrow(ConfigValidationError);
    try {
      loadConfig({ PORT: 'eighty', QHORUS_ROLE: 'boss', QHORUS_SUMMARY_THRESHOLD: '0' });
    } catch (e) {
      expect((e as Error).message).toMatch(/PORT/);
      expect((e as Error).message).toMatch(/QHORUS_ROLE/);
      expect((e as Error).message).toMatch(/QHORUS_SUMMARY_THRESHOLD/);
    }
  });

  it.each(['QHORUS_MODEL_CALLS_PER_HOUR', 'QHORUS_MODEL_TOKENS_PER_DAY', 'QHORUS_MODEL_SUMMARY_MIN_THRESHOLD', 'QHORUS_MODEL_SUMMARY_MIN_TOKENS', 'QHORUS_MODEL_SUMMARY_MIN_SECONDS'])(
    'a budget knob that is not a positive number stops start-up naming it: %s',
    (knob) => {
      for (const bad of ['0', '-5', 'lots', '1.5']) {
        expect(() => loadConfig({ [knob]: bad })).toThrow(ConfigValidationError);
        expect(() => loadConfig({ [knob]: bad })).toThrow(new RegExp(`${knob}: `));
      }
      expect(loadConfig({ [knob]: '7' })[knob as keyof AppConfig]).toBe(7);
    },
  );

  it('names a bad limit, cache or policy knob', () => {
    for (const [knob, bad] of [
      ['QHORUS_MODEL_SUMMARISER_POLICY', 'everyone'],
      ['QHORUS_MAX_METADATA_BYTES', '0'],
      ['QHORUS_MAX_CHANNELS_PER_AGENT', 'many'],
      ['QHORUS_MAX_SSE_STREAMS_PER_AGENT', '0'],
      ['QHORUS_AUTH_FAILURE_BURST', '0'],
      ['QHORUS_AUTH_NEGATIVE_CACHE_TTL_MS', '-1'],
      ['QHORUS_LAST_SEEN_FLUSH_MS', '10'],
    ]) {
      expect(() => loadConfig({ [knob]: bad })).toThrow(new RegExp(`${knob}: `));
    }
  });

  it('reads QHORUS_TRUST_PROXY as Fastify takes it, and rejects what is neither a flag, a count nor addresses', () => {
    expect(trustProxySetting('true')).toBe(true);
    expect(trustProxySetting('false')).toBe(false);
    expect(trustProxySetting('2')).toBe(2);
    expect(trustProxySetting('loopback, 10.0.0.0/8,::1')).toEqual(['loopback', '10.0.0.0/8', '::1']);
    expect(loadConfig({ QHORUS_TRUST_PROXY: '10.0.0.0/8,uniquelocal' }).QHORUS_TRUST_PROXY).toBe('10.0.0.0/8,uniquelocal');
    for (const bad of ['yes', '10.0.0.0/33', 'example.com', '10.0.0.1/8/8']) {
      expect(() => loadConfig({ QHORUS_TRUST_PROXY: bad })).toThrow(/QHORUS_TRUST_PROXY must be true, false, a hop count/);
    }
  });

  it('trusts X-Forwarded-For from loopback only by default: a private or link-local peer cannot choose its address', async () => {
    const app = Fastify({ trustProxy: trustProxySetting(loadConfig({}).QHORUS_TRUST_PROXY) });
    app.get('/', (request) => ({ ip: request.ip }));
    const ipFrom = async (remoteAddress: string) => (await app.inject({ method: 'GET', url: '/', remoteAddress, headers: { 'x-forwarded-for': '203.0.113.9' } })).json().ip;
    try {
      for (const proxy of ['127.0.0.1', '::1']) expect({ proxy, ip: await ipFrom(proxy) }).toEqual({ proxy, ip: '203.0.113.9' });
      for (const peer of ['10.0.0.5', '172.16.0.5', '192.168.1.5', '169.254.1.5', 'fd00::5', 'fe80::5', '198.51.100.7']) {
        expect({ peer, ip: await ipFrom(peer) }).toEqual({ peer, ip: peer });
      }
    } finally {
      await app.close();
    }
  });

  it('keeps a long poll below the MCP client\'s 60 s request timeout', () => {
    expect(loadConfig({ QHORUS_LONG_POLL_MAX_MS: '59000' }).QHORUS_LONG_POLL_MAX_MS).toBe(59_000);
    expect(() => loadConfig({ QHORUS_LONG_POLL_MAX_MS: '60000' })).toThrow(/QHORUS_LONG_POLL_MAX_MS/);
    expect(() => loadConfig({ QHORUS_LONG_POLL_MAX_PER_AGENT: '0' })).toThrow(/QHORUS_LONG_POLL_MAX_PER_AGENT/);
  });

  it.each([
    ['QHORUS_SUMMARY_HISTORY_KEEP', '0'],
    ['QHORUS_SUMMARY_HISTORY_KEEP', '-5'],
    ['QHORUS_SUMMARY_HISTORY_KEEP', 'all'],
    ['QHORUS_SUMMARY_HISTORY_KEEP', '2.5'],
    ['QHORUS_SUMMARY_ABORT_GRACE_MS', '-1'],
    ['QHORUS_SUMMARY_ABORT_GRACE_MS', 'soon'],
  ])('refuses %s=%p at start-up, naming it', (knob, value) => {
    expect(() => loadConfig({ [knob]: value })).toThrow(new RegExp(`Invalid configuration:[\\s\\S]*${knob}`));
  });

  it('derives the failure backoff of every trigger path from the sweep interval', () => {
    expect(loadConfig({ QHORUS_SWEEP_INTERVAL_MS: '2000' }).summaryFailureBackoffMs).toBe(2000 * SUMMARY_FAILURE_BACKOFF_SWEEP_INTERVALS);
  });

  it('rejects tier bounds out of order', () => {
    expect(() => loadConfig({ QHORUS_TIERED_SMALL_MAX: '10', QHORUS_TIERED_MEDIUM_MAX: '5' })).toThrow(/MEDIUM_MAX/);
  });

  it('with an API key, rejects an LLM timeout that the job timeout would cut off first (tiered could not fall back)', () => {
    const timeouts = { QHORUS_LLM_TIMEOUT_MS: '5000', QHORUS_SUMMARY_TIMEOUT_MS: '5000' };
    expect(() => loadConfig({ ...timeouts, ANTHROPIC_API_KEY: 'k' })).toThrow(/QHORUS_LLM_TIMEOUT_MS must be < QHORUS_SUMMARY_TIMEOUT_MS/);
    expect(loadConfig(timeouts).QHORUS_LLM_TIMEOUT_MS).toBe(5000); // no key: the LLM tier never runs
    expect(loadConfig({ ...timeouts, QHORUS_LLM_TIMEOUT_MS: '4999', ANTHROPIC_API_KEY: 'k' }).QHORUS_LLM_TIMEOUT_MS).toBe(4999);
  });

  describe('every knob is listed: a user setting in the README and .env.example, an internal tuning value in docs/tuning.md', () => {
    const read = (path: string) => readFileSync(join(__dirname, '../../../..', path), 'utf8');
    const tuning = new Set<string>(TUNING_KNOBS);
    const userKnobs = Object.keys(CONFIG_DEFAULTS).filter((knob) => !tuning.has(knob));

    it('documents every user knob in the README configuration table', () => {
      const readme = read('README.md');
      for (const knob of userKnobs) expect(readme).toContain(`| \`${knob}\` |`);
    });

    it('lists every user knob in .env.example', () => {
      const example = read('.env.example');
      for (const knob of [...userKnobs, ...OPTIONAL_KNOBS]) expect(example).toMatch(new RegExp(`^${knob}=`, 'm'));
    });

    it('lists every tuning value in docs/tuning.md with its default, and not in .env.example or the README table', () => {
      const doc = read('docs/tuning.md');
      const example = read('.env.example');
      const readme = read('README.md');
      for (const knob of TUNING_KNOBS) {
        expect([knob, doc]).toEqual([knob, expect.stringContaining(`| \`${knob}\` | \`${CONFIG_DEFAULTS[knob]}\` |`)]);
        expect([knob, example]).toEqual([knob, expect.not.stringMatching(new RegExp(`^${knob}=`, 'm'))]);
        expect([knob, readme]).toEqual([knob, expect.not.stringContaining(`| \`${knob}\` |`)]);
      }
    });

    it('lists nothing in docs/tuning.md that is not a tuning value', () => {
      const listed = [...read('docs/tuning.md').matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
      expect(listed.sort()).toEqual([...TUNING_KNOBS].sort());
    });
  });

  describe('the model provider (QHORUS_LLM_*)', () => {
    it('defaults to anthropic with its own key, URL and model', () => {
      const config = loadConfig({ ANTHROPIC_API_KEY: 'ak', ANTHROPIC_BASE_URL: 'http://proxy:8080', OPENAI_API_KEY: 'ok' });
      expect([config.QHORUS_LLM_PROVIDER, config.llmApiKey, config.llmBaseUrl, config.llmModel]).toEqual(['anthropic', 'ak', 'http://proxy:8080', 'claude-haiku-4-5']);
    });

    it('openai: falls back to OPENAI_API_KEY and OPENAI_BASE_URL, with its own default model; the QHORUS_LLM_* ones win', () => {
      const fallback = loadConfig({ QHORUS_LLM_PROVIDER: 'openai', ANTHROPIC_API_KEY: 'ak', OPENAI_API_KEY: 'ok', OPENAI_BASE_URL: 'http://localhost:11434/v1' });
      expect([fallback.llmApiKey, fallback.llmBaseUrl, fallback.llmModel]).toEqual(['ok', 'http://localhost:11434/v1', 'gpt-5.4-mini']);
      const own = loadConfig({ QHORUS_LLM_PROVIDER: 'openai', QHORUS_LLM_API_KEY: 'qk', QHORUS_LLM_BASE_URL: 'https://vllm.internal/v1', QHORUS_LLM_MODEL: 'qwen3:8b', OPENAI_API_KEY: 'ok' });
      expect([own.llmApiKey, own.llmBaseUrl, own.llmModel]).toEqual(['qk', 'https://vllm.internal/v1', 'qwen3:8b']);
      expect(loadConfig({ QHORUS_LLM_PROVIDER: 'openai', ANTHROPIC_API_KEY: 'ak' }).llmApiKey).toBeUndefined(); // the other provider's key is not used
    });

    it.each([
      [{ QHORUS_LLM_PROVIDER: 'gemini' }, 'Invalid configuration: QHORUS_LLM_PROVIDER: QHORUS_LLM_PROVIDER must be one of the following values: anthropic, openai'],
      [{ QHORUS_LLM_BASE_URL: 'localhost:11434/v1' }, 'Invalid configuration: QHORUS_LLM_BASE_URL: QHORUS_LLM_BASE_URL must be an http:// or https:// URL (the model API base URL)'],
      [{ OPENAI_BASE_URL: 'ftp://models/v1' }, 'Invalid configuration: OPENAI_BASE_URL: OPENAI_BASE_URL must be an http:// or https:// URL (the model API base URL)'],
      [{ ANTHROPIC_BASE_URL: 'not a url' }, 'Invalid configuration: ANTHROPIC_BASE_URL: ANTHROPIC_BASE_URL must be an http:// or https:// URL (the model API base URL)'],
      [{ QHORUS_LLM_MODEL: '   ' }, "Invalid configuration: QHORUS_LLM_MODEL is blank: name a model, or leave it unset for the provider's default"],
    ])('refuses %p at start-up in one line naming the setting', (env, message) => {
      expect(() => loadConfig(env)).toThrow(ConfigValidationError);
      expect(() => loadConfig(env)).toThrow(new ConfigValidationError(message));
    });

    it('one bad setting is one line; several are listed one per line, each named', () => {
      const one = () => loadConfig({ PORT: 'eighty' });
      expect(one).toThrow(/^Invalid configuration: PORT: [^\n]*PORT must be an integer number$/);
      const several = () => loadConfig({ PORT: 'eighty', QHORUS_LLM_PROVIDER: 'gemini' });
      expect(several).toThrow(/^Invalid configuration:\n {2}PORT: [^\n]*PORT must be an integer number\n {2}QHORUS_LLM_PROVIDER: QHORUS_LLM_PROVIDER must be one of the following values: anthropic, openai$/);
    });

    it('reads an empty QHORUS_LLM_MODEL (as .env.example writes it) as unset: the provider’s default', () => {
      expect(loadConfig({ QHORUS_LLM_PROVIDER: 'openai', QHORUS_LLM_MODEL: '' }).llmModel).toBe('gpt-5.4-mini');
    });

    it('with an OpenAI key too, refuses an LLM timeout the job timeout would cut off first', () => {
      const timeouts = { QHORUS_LLM_TIMEOUT_MS: '5000', QHORUS_SUMMARY_TIMEOUT_MS: '5000' };
      expect(() => loadConfig({ ...timeouts, QHORUS_LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'k' })).toThrow(/QHORUS_LLM_TIMEOUT_MS must be < QHORUS_SUMMARY_TIMEOUT_MS/);
      expect(() => loadConfig({ ...timeouts, QHORUS_LLM_API_KEY: 'k' })).toThrow(/QHORUS_LLM_TIMEOUT_MS must be < QHORUS_SUMMARY_TIMEOUT_MS/);
    });
  });
});

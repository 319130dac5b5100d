import Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_LLM_MODELS } from '@qhorus/blocks-channel-summary';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_EXAMPLE_MODEL } from '../examples/agents/run-example';
import { FakeAnthropic, startFakeAnthropic } from '../libs/blocks-summarisation/test/fake-anthropic-server';

const ROOT = join(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/**
 * Issue 31: the models the service and the example agents use when none is named are ones the
 * providers serve today, as the installed SDKs say; and the docs name the same ones. An SDK
 * upgrade that deprecates a default fails here, not in a deployment's log.
 */
describe('default models are ones the installed SDKs still serve', () => {
  let fake: FakeAnthropic;
  beforeAll(async () => {
    fake = await startFakeAnthropic(() => 'ok');
  });
  afterAll(() => fake?.close());

  it.each([
    ['the service (QHORUS_LLM_PROVIDER=anthropic)', DEFAULT_LLM_MODELS.anthropic],
    ['examples/agents (EXAMPLE_MODEL)', DEFAULT_EXAMPLE_MODEL],
  ])("%s: %s draws no deprecation notice from the Anthropic SDK (it prints one for a model in its end-of-life table)", async (_, model) => {
    const printed = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const client = new Anthropic({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 });
      await client.messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
      // The same call with a model the SDK lists as past end-of-life does print: the check can fail.
      await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
      expect(printed.mock.calls.map((args) => String(args[0]))).toEqual([expect.stringMatching(/^The model 'claude-sonnet-4-5' is deprecated/)]);
    } finally {
      printed.mockRestore();
    }
  });

  it('the service (QHORUS_LLM_PROVIDER=openai): the default is one of the chat models the installed openai SDK names', () => {
    // The SDK publishes its model names as a type only (`ChatModel` in resources/shared); it keeps no deprecation table.
    const shared = readFileSync(join(dirname(require.resolve('openai')), 'resources/shared.d.ts'), 'utf8');
    const union = /export type ChatModel = ([^;]+);/.exec(shared)?.[1] ?? '';
    const names = [...union.matchAll(/'([^']+)'/g)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(10);
    expect(names).toContain(DEFAULT_LLM_MODELS.openai);
  });

  it('the README and .env.example name the same defaults', () => {
    const readme = read('README.md');
    const example = read('.env.example');
    expect(readme).toContain(`| \`QHORUS_LLM_MODEL\` | per provider | model for the LLM tier; unset: \`${DEFAULT_LLM_MODELS.anthropic}\` (anthropic), \`${DEFAULT_LLM_MODELS.openai}\` (openai)`);
    expect(example).toMatch(new RegExp(`^QHORUS_LLM_MODEL=.*# unset = the provider's default: ${DEFAULT_LLM_MODELS.anthropic} \\(anthropic\\), ${DEFAULT_LLM_MODELS.openai.replace(/\./g, '\\.')} \\(openai\\)`, 'm'));
    expect(readme).toContain(`The model is \`EXAMPLE_MODEL\` (default \`${DEFAULT_EXAMPLE_MODEL}\`)`);
  });
});

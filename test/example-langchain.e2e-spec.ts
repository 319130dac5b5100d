import { FakeChatModel, FakeListChatModel } from '@langchain/core/utils/testing';
import { QhorusClient } from '@qhorus/client';
import { ask, qhorusMemoryChain } from '../examples/langchain/chain';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';

/** examples/langchain: LangChain's own RunnableWithMessageHistory with @qhorus/langchain as its memory, fake models from @langchain/core. */
describe('examples/langchain: a LangChain chain whose memory is a Qhorus channel', () => {
  let t: TestApp;
  let client: QhorusClient;
  const agent = 'lc-agent';

  beforeAll(async () => {
    t = await startTestApp('example-langchain');
    const admin = new QhorusClient({ baseUrl: t.baseUrl, token: TEST_ADMIN_TOKEN });
    client = new QhorusClient({ baseUrl: t.baseUrl, token: (await admin.registerAgent(agent)).token });
    await client.createChannel({ name: 'lc-memory' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('posts every turn to the channel, as the agent, in order', async () => {
    const model = new FakeListChatModel({ responses: ['Friday.', 'You asked when it ships.'] });
    const answers = await ask(qhorusMemoryChain({ client, agent, model }), agent, 'lc-memory', ['When does release 42 ship?', 'What did I ask?']);
    expect(answers).toEqual(['Friday.', 'You asked when it ships.']);
    const messages = await client.listMessages('lc-memory');
    expect(messages.map((m) => [m.sender, m.content, m.metadata?.langchainRole])).toEqual([
      [agent, 'When does release 42 ship?', 'human'],
      [agent, 'Friday.', 'ai'],
      [agent, 'What did I ask?', 'human'],
      [agent, 'You asked when it ships.', 'ai'],
    ]);
  });

  it('a new chain (a restarted process) gets the earlier turns from the channel, in its prompt', async () => {
    // FakeChatModel answers with the prompt it was given: it shows what the memory put there.
    const [echo] = await ask(qhorusMemoryChain({ client, agent, model: new FakeChatModel({}) }), agent, 'lc-memory', ['Anything new?']);
    expect(echo.split('\n')).toEqual([
      `You are ${agent}, one of several agents coordinating in a Qhorus channel. Answer briefly.`,
      'When does release 42 ship?',
      'Friday.',
      'What did I ask?',
      'You asked when it ships.',
      'Anything new?',
    ]);
  });
});

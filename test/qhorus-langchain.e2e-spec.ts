import { AIMessage, BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { FakeChatModel } from '@langchain/core/utils/testing';
import { QhorusClient } from '@qhorus/client';
import { QhorusChatMessageHistory } from '@qhorus/langchain';
import { waitFor } from './support/http';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';

const shape = (messages: BaseMessage[]) => messages.map((m) => [m.getType(), m.text, m.name ?? null]);

describe('LangChain: QhorusChatMessageHistory on a real channel', () => {
  let t: TestApp;
  let admin: QhorusClient;
  let alice: QhorusClient;
  let bob: QhorusClient;

  beforeAll(async () => {
    t = await startTestApp('qhorus-langchain', { inProcessQueue: true });
    admin = new QhorusClient({ baseUrl: t.baseUrl, token: TEST_ADMIN_TOKEN });
    alice = new QhorusClient({ baseUrl: t.baseUrl, token: (await admin.registerAgent('alice')).token });
    bob = new QhorusClient({ baseUrl: t.baseUrl, token: (await admin.registerAgent('bob')).token });
  });
  afterAll(() => t?.close());

  it('round-trips messages: human and AI turns in, the same turns out; other agents as named human turns', async () => {
    await alice.createChannel({ name: 'lc-round-trip', summaryThreshold: 1000 });
    const history = new QhorusChatMessageHistory({ client: alice, channel: 'lc-round-trip', agent: 'alice' });
    await history.addUserMessage('What is left before the release?');
    await history.addAIMessage('The migration review.');
    await bob.postMessage('lc-round-trip', { content: 'I am reviewing it now' });
    await history.addMessages([new SystemMessage('Be brief.'), new HumanMessage('Thanks')]);
    const messages = await history.getMessages();
    expect(messages[0]).toBeInstanceOf(HumanMessage);
    expect(messages[1]).toBeInstanceOf(AIMessage);
    expect(shape(messages)).toEqual([
      ['human', 'What is left before the release?', null],
      ['ai', 'The migration review.', 'alice'],
      ['human', 'I am reviewing it now', 'bob'],
      ['system', 'Be brief.', null],
      ['human', 'Thanks', null],
    ]);
    // The channel really holds them, as posts by the agent.
    expect((await bob.listMessages('lc-round-trip')).map((m) => m.sender)).toEqual(['alice', 'alice', 'bob', 'alice', 'alice']);
  });

  it('serves a chain through RunnableWithMessageHistory: the second turn sees the first', async () => {
    await alice.createChannel({ name: 'lc-chain', summaryThreshold: 1000 });
    const prompt = ChatPromptTemplate.fromMessages([['system', 'You answer for alice.'], new MessagesPlaceholder('history'), ['human', '{question}']]);
    // FakeChatModel answers with the text of every message it was given: what the model saw.
    const chain = new RunnableWithMessageHistory({
      runnable: prompt.pipe(new FakeChatModel({})),
      getMessageHistory: (channel: string) => new QhorusChatMessageHistory({ client: alice, channel, agent: 'alice' }),
      inputMessagesKey: 'question',
      historyMessagesKey: 'history',
    });
    const config = { configurable: { sessionId: 'lc-chain' } };
    await chain.invoke({ question: 'first question' }, config);
    const second = await chain.invoke({ question: 'second question' }, config);
    expect(second.text.split('\n')).toEqual(['You answer for alice.', 'first question', 'You answer for alice.', 'first question', 'second question']);
    expect((await bob.listMessages('lc-chain')).map((m) => (m.content ?? '').split('\n')[0])).toEqual(['first question', 'You answer for alice.', 'second question', 'You answer for alice.']);
  });

  it('gives the summary plus the recent messages once the channel is summarised, bounded however long it grows; clear() starts afresh', async () => {
    await alice.createChannel({ name: 'lc-long', summaryThreshold: 5 });
    const history = new QhorusChatMessageHistory({ client: alice, channel: 'lc-long', agent: 'alice', recentMessages: 4 });
    for (let i = 1; i <= 12; i++) await (i % 2 ? history.addUserMessage(`step ${i}: progress on the build`) : history.addAIMessage(`noted ${i}`));
    const summary = await waitFor(async () => {
      const s = await alice.getSummary('lc-long');
      return s.version >= 1 && s.pending < 5 ? s : null;
    }, 'a summary');
    const messages = await history.getMessages();
    expect(messages[0]).toBeInstanceOf(SystemMessage);
    expect(messages[0].text).toContain(summary.text);
    const recent = messages.slice(1);
    expect(recent.length).toBeLessThanOrEqual(4);
    expect(recent.length).toBe(Math.min(4, 12 - summary.coversThroughSeq));
    // The job may have started after the last post and covered all 12: then nothing is recent.
    if (summary.coversThroughSeq < 12) expect(recent.at(-1)?.text).toBe('noted 12');

    await history.clear();
    expect(await history.getMessages()).toEqual([]);
    await history.addUserMessage('after the clear');
    expect(shape(await history.getMessages())).toEqual([['human', 'after the clear', null]]);
  });
});

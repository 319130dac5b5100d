import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import type { QhorusClient } from '@qhorus/client';
import { QhorusChatMessageHistory } from '@qhorus/langchain';

export interface QhorusMemoryChainOptions {
  /** A client holding the agent's token: the chain's turns are posted as that agent. */
  client: QhorusClient;
  /** The agent's name: its own posts come back as AI turns. */
  agent: string;
  model: BaseChatModel;
}

/**
 * A LangChain chain whose memory is a Qhorus channel, through LangChain's own
 * RunnableWithMessageHistory: the session id is the channel. Every turn is posted to the
 * channel; the history the prompt gets is the channel's summary plus its recent messages, so it
 * stays bounded however long the channel grows, and other agents in the channel see the turns.
 */
export function qhorusMemoryChain({ client, agent, model }: QhorusMemoryChainOptions) {
  const prompt = ChatPromptTemplate.fromMessages([
    ['system', 'You are {agent}, one of several agents coordinating in a Qhorus channel. Answer briefly.'],
    new MessagesPlaceholder('history'),
    ['human', '{question}'],
  ]);
  return new RunnableWithMessageHistory({
    runnable: prompt.pipe(model),
    getMessageHistory: (channel: string) => new QhorusChatMessageHistory({ client, channel, agent }),
    inputMessagesKey: 'question',
    historyMessagesKey: 'history',
  });
}

/** Asks `questions` in turn in `channel`; answers the model's replies as text. */
export async function ask(chain: ReturnType<typeof qhorusMemoryChain>, agent: string, channel: string, questions: string[]): Promise<string[]> {
  const answers: string[] = [];
  for (const question of questions) {
    const reply = await chain.invoke({ agent, question }, { configurable: { sessionId: channel } });
    answers.push(reply.text);
  }
  return answers;
}

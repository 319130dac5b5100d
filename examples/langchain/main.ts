/**
 * LangChain with Qhorus as its memory, runnable without any model key: a fake chat model from
 * @langchain/core answers. Swap in a real one (ChatAnthropic, ChatOpenAI) and nothing else changes.
 *   QHORUS_URL=http://localhost:3000 QHORUS_TOKEN=<an agent's token> QHORUS_AGENT=<its name> \
 *     node dist/examples/langchain/main.js [channel]        (after npm run build; npm start running)
 */
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { QhorusClient, QhorusError } from '@qhorus/client';
import { ask, qhorusMemoryChain } from './chain';

const CONFLICT = 409;

async function main(): Promise<void> {
  const { QHORUS_URL: baseUrl = 'http://localhost:3000', QHORUS_TOKEN: token, QHORUS_AGENT: agent } = process.env;
  if (!token || !agent) throw new Error('Set QHORUS_TOKEN and QHORUS_AGENT (an agent registered with POST /api/v1/agents or `qhorus agents add`)');
  const channel = process.argv[2] ?? 'langchain-demo';
  const client = new QhorusClient({ baseUrl, token });
  await client.createChannel({ name: channel, description: 'LangChain memory demo' }).catch((err: unknown) => {
    if (!(err instanceof QhorusError && err.statusCode === CONFLICT)) throw err; // already there: keep its history
  });
  const model = new FakeListChatModel({ responses: ['Release 42 ships on Friday.', 'You asked when release 42 ships.'] });
  const answers = await ask(qhorusMemoryChain({ client, agent, model }), agent, channel, ['When does release 42 ship?', 'What did I just ask?']);
  for (const answer of answers) console.log(answer);
  const messages = await client.listMessages(channel, { tail: 4 });
  console.log(`channel ${channel} now ends with: ${messages.map((m) => `#${m.seq} ${m.sender}: ${m.content}`).join(' | ')}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

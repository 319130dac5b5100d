import type Anthropic from '@anthropic-ai/sdk';
import type { Message, QhorusClient } from '@qhorus/client';
import { ask } from './llm';
import { nextMessage } from './wait-for';

export interface WorkerOptions {
  client: QhorusClient;
  anthropic: Anthropic;
  model: string;
  channel: string;
  /** The worker's agent name (its token's). */
  name: string;
  signal?: AbortSignal;
}

/**
 * The worker: takes the oldest open QUERY addressed to it (asked before it started, or the next one), answers it from the channel's context (its own
 * point of view) with a RESPONSE on the same thread, then waits until that thread is closed.
 * Answers the query it handled and the message that closed it.
 */
export async function runWorker(o: WorkerOptions): Promise<{ query: Message; answer: Message; closedBy: Message }> {
  const query = await queryFor(o);
  const context = await o.client.anthropicContext(o.channel);
  const text = await ask(o.anthropic, o.model, `You are ${o.name}, the worker. Answer the planner's last question precisely.`, context.messages);
  const answer = await o.client.postMessage(o.channel, { type: 'RESPONSE', content: text, correlationId: query.correlationId ?? undefined, inReplyTo: query.seq, topic: query.topic ?? undefined });
  const closedBy = await nextMessage(o.client, o.channel, answer.seq, (m) => m.correlationId === query.correlationId && ['DONE', 'FAILURE', 'DECLINE'].includes(m.type), o.signal);
  return { query, answer, closedBy };
}

/**
 * The oldest open QUERY owed by this agent in the channel: from its inbox (a question asked before
 * the worker started), else the next one posted. The channel's lastSeq is read before the inbox,
 * so a question posted between the two reads is in one or the other, never in neither.
 */
async function queryFor(o: WorkerOptions): Promise<Message> {
  const isOurs = (m: Message) => m.type === 'QUERY' && m.target === o.name;
  const { lastSeq } = await o.client.getChannel(o.channel);
  const owed = (await o.client.inbox()).find((i) => i.channel === o.channel && i.reason === 'owed' && i.type === 'QUERY');
  if (!owed) return nextMessage(o.client, o.channel, lastSeq, isOurs, o.signal);
  const [asked] = await o.client.listMessages(o.channel, { afterSeq: owed.seq - 1, limit: 1 });
  return asked;
}

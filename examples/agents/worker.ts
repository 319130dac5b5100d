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
 * The worker: waits for a QUERY addressed to it, answers it from the channel's context (its own
 * point of view) with a RESPONSE on the same thread, then waits until that thread is closed.
 * Answers the query it handled and the message that closed it.
 */
export async function runWorker(o: WorkerOptions): Promise<{ query: Message; answer: Message; closedBy: Message }> {
  const { lastSeq } = await o.client.getChannel(o.channel);
  const query = await nextMessage(o.client, o.channel, lastSeq, (m) => m.type === 'QUERY' && m.target === o.name, o.signal);
  const context = await o.client.anthropicContext(o.channel);
  const text = await ask(o.anthropic, o.model, `You are ${o.name}, the worker. Answer the planner's last question precisely.`, context.messages);
  const answer = await o.client.postMessage(o.channel, { type: 'RESPONSE', content: text, correlationId: query.correlationId ?? undefined, inReplyTo: query.seq, topic: query.topic });
  const closedBy = await nextMessage(o.client, o.channel, answer.seq, (m) => m.correlationId === query.correlationId && ['DONE', 'FAILURE', 'DECLINE'].includes(m.type), o.signal);
  return { query, answer, closedBy };
}

import type Anthropic from '@anthropic-ai/sdk';
import type { QhorusClient, Summary } from '@qhorus/client';
import { ask } from './llm';
import { nextMessage } from './wait-for';

export interface PlannerOptions {
  client: QhorusClient;
  anthropic: Anthropic;
  model: string;
  channel: string;
  /** The agent the planner asks. */
  worker: string;
  /** What the team is to decide. */
  goal: string;
  signal?: AbortSignal;
}

export interface PlannerOutcome {
  question: string;
  answer: string;
  conclusion: string;
  summary: Summary;
}

/**
 * The planner: turns the goal into one question for the worker (QUERY, targeted), waits for the
 * worker's RESPONSE on that thread, reads the channel's summary, concludes from the channel's
 * context and closes the thread (DONE).
 */
export async function runPlanner(o: PlannerOptions): Promise<PlannerOutcome> {
  const start = await o.client.getChannel(o.channel);
  const framing = await o.client.anthropicContext(o.channel);
  const question = await ask(o.anthropic, o.model, `You are the planner. Goal: ${o.goal}. Write the one question you must ask ${o.worker} to reach it.`, framing.messages);
  const asked = await o.client.postMessage(o.channel, { type: 'QUERY', content: question, target: o.worker, topic: 'plan' });

  const reply = await nextMessage(o.client, o.channel, Math.max(start.lastSeq, asked.seq), (m) => m.type === 'RESPONSE' && m.correlationId === asked.correlationId, o.signal);

  // Summarise what happened so far, and read it as a newcomer would.
  await o.client.refreshSummary(o.channel);
  const summary = await waitForSummaryThrough(o.client, o.channel, reply.seq, o.signal);
  const context = await o.client.anthropicContext(o.channel);
  const conclusion = await ask(o.anthropic, o.model, `You are the planner. Goal: ${o.goal}. Conclude in two sentences from what ${o.worker} answered.`, context.messages);
  await o.client.postMessage(o.channel, { type: 'DONE', content: conclusion, correlationId: asked.correlationId ?? undefined, inReplyTo: reply.seq, topic: 'plan' });
  return { question, answer: reply.content ?? '', conclusion, summary };
}

const SUMMARY_POLL_MS = 200;

async function waitForSummaryThrough(client: QhorusClient, channel: string, seq: number, signal?: AbortSignal): Promise<Summary> {
  for (;;) {
    const s = await client.getSummary(channel);
    if (s.coversThroughSeq >= seq) return s;
    if (signal?.aborted) throw new Error('stopped waiting for the summary');
    await new Promise((r) => setTimeout(r, SUMMARY_POLL_MS));
  }
}

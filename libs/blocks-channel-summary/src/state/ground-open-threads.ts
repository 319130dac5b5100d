import { STATE_KEYS as K } from './state-keys';
import { Instant, ThreadType } from './state-records';

/** One thread open as of a watermark, as a durable thread index knows it (its opening message's topic and text). */
export interface OpenThreadSeed {
  readonly correlationId: string;
  readonly type: ThreadType;
  /** Who opened (or last reopened) it. */
  readonly sender: string;
  readonly seq: number;
  /** Who owes the next step (after handoffs); null = anyone. */
  readonly target: string | null;
  readonly topic: string;
  readonly at: Instant;
  /** The opening message's content (the tracker cuts it to its excerpt). */
  readonly text: string;
}

/** Whether the state dropped open threads past its cap: only then does it need the index to stay true. */
export function dropsOpenThreads(annotations: Readonly<Record<string, string>> | null | undefined): boolean {
  const dropped = annotations?.[K.openThreadsDropped];
  return dropped !== undefined && dropped !== '0';
}

/**
 * The annotations with their open threads replaced by `open`, the threads open as of the
 * annotations' watermark as a durable index lists them, and `openThreadsDropped` = `openTotal`
 * minus those listed. The tracker alone cannot keep a state past its cap true: a dropped thread
 * that closes later is not in its list, and a listed one that closes leaves a place no dropped one
 * refills. Handed this as the previous state, it folds the next batch over the truth: `open` should
 * hold the newest open threads and every one the batch touches (it may exceed the cap; the tracker
 * bounds its result). Other keys are kept.
 */
export function groundOpenThreads(
  annotations: Readonly<Record<string, string>>,
  open: readonly OpenThreadSeed[],
  openTotal: number,
): Record<string, string> {
  const listed = [...open].sort((a, b) => a.seq - b.seq);
  const details: Record<string, unknown> = {};
  for (const t of listed) details[String(t.seq)] = { target: t.target, topic: t.topic, at: t.at, text: t.text };
  return {
    ...annotations,
    [K.openThreads]: JSON.stringify(listed.map(({ correlationId, type, sender, seq }) => ({ correlationId, type, sender, seq }))),
    [K.openThreadDetails]: JSON.stringify(details),
    [K.openThreadsDropped]: String(Math.max(0, openTotal - listed.length)),
  };
}

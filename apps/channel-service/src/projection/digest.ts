import { Message } from '@qhorus/api';
import { HeuristicMessageSummariser } from '@qhorus/blocks-channel-summary';
import { unitCost } from './token-cost';

/** Condenses the oldest messages after the watermark when they do not fit verbatim. */
export type Digester = (messages: readonly Message[]) => Promise<string>;

/** The default digester: the zero-cost heuristic report (participants, open threads, decisions …). */
export function heuristicDigester(): Digester {
  const summariser = new HeuristicMessageSummariser();
  return async (messages) => (messages.length === 0 ? '' : (await summariser.summarise(messages, null)).text);
}

export function digestMarker(fromSeq: number, toSeq: number): string {
  const range = fromSeq === toSeq ? `message ${fromSeq}` : `messages ${fromSeq}–${toSeq}`;
  return `[Digest of ${range}, not yet in the summary. Expand with check_messages after_seq=${fromSeq - 1}.]`;
}

/** The marker, then the report's lines in order while they fit `budget` (whole lines only). */
export function fitDigest(marker: string, report: string, budget: number): string {
  let text = marker;
  for (const line of report.split('\n')) {
    if (!line.trim()) continue;
    const next = `${text}\n${line}`;
    if (unitCost(next) > budget) break;
    text = next;
  }
  return text;
}

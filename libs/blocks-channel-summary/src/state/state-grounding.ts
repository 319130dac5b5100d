import { GroundingSection } from '@qhorus/blocks-summarisation';
import { describeDecision, describeOpenThread } from '../heuristic/heuristic-report';
import { moreLine } from '../text/list-lines';
import { ChannelStateSnapshot } from './state-snapshot';

/** Open threads listed in an LLM prompt (newest first); the rest are counted. */
export const GROUNDING_OPEN_THREADS_MAX = 40;
/** Participants listed in an LLM prompt (most active first); the rest are counted. */
export const GROUNDING_PARTICIPANTS_MAX = 50;

/**
 * The channel state as grounding for the LLM tier (plain lines, so the generic summariser needs
 * no channel types): open requests, decisions and participants, bounded, so a prompt stays small
 * whatever the channel's length.
 */
export function groundingFromState(s: ChannelStateSnapshot): GroundingSection[] {
  const open = [...s.openThreads].reverse();
  const participants = [...s.participants].sort((a, b) => b[1] - a[1]);
  return [
    { title: `Open requests (${open.length}, newest first)`, lines: bounded(open, GROUNDING_OPEN_THREADS_MAX, describeOpenThread) },
    { title: `Decisions (${s.decisions.length}, newest first)`, lines: [...s.decisions].reverse().map(describeDecision) },
    {
      title: `Participants (${participants.length}, most active first)`,
      lines: bounded(participants, GROUNDING_PARTICIPANTS_MAX, ([name, count]) => `${name} (${count} messages)`),
    },
  ];
}

/** The first `max` items rendered, then a line counting the rest. */
function bounded<T>(items: readonly T[], max: number, render: (item: T) => string): string[] {
  const lines = items.slice(0, max).map(render);
  if (items.length > max) lines.push(moreLine(items.length - max, ''));
  return lines;
}

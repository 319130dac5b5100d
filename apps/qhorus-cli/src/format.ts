import { styleText } from 'node:util';
import type { Channel, InboxItem, Message } from '@qhorus/client';

type Style = Parameters<typeof styleText>[0];
/** Each message type in its own colour, so a tail reads at a glance. */
const TYPE_STYLES: Record<string, Style> = {
  QUERY: 'cyan',
  COMMAND: 'magenta',
  RESPONSE: 'green',
  STATUS: 'gray',
  DECLINE: 'yellow',
  FAILURE: 'red',
  HANDOFF: 'blue',
  DONE: 'greenBright',
  EVENT: 'dim',
};

/** Colours only on a terminal (or when FORCE_COLOR asks), never with NO_COLOR. */
export function coloursOn(): boolean {
  if (process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return true;
  return Boolean(process.stdout.isTTY);
}

const paint = (style: Style, text: string) => (coloursOn() ? styleText(style, text, { validateStream: false }) : text);

export function messageLine(m: Message): string {
  const thread = [m.correlationId ? `corr ${m.correlationId}` : '', m.inReplyTo ? `re #${m.inReplyTo}` : '', m.target ? `→ ${m.target}` : '', m.topic ? `topic ${m.topic}` : ''].filter(Boolean).join(' · ');
  const time = new Date(m.createdAt).toISOString().slice(11, 19);
  return `#${m.seq} ${paint('dim', time)} ${paint(TYPE_STYLES[m.type] ?? 'white', m.type.padEnd(8))} ${paint('bold', m.sender)}${thread ? ` ${paint('dim', `[${thread}]`)}` : ''}: ${m.redacted ? paint('dim', `[redacted by ${m.redacted.by}: ${m.redacted.reason}]`) : m.content}`;
}

export function summaryLine(version: number, coversThroughSeq: number, updatedBy: string): string {
  return paint('yellow', `— summary v${version} (through #${coversThroughSeq}, by ${updatedBy}) —`);
}

/** What a channel line shows: in every channel answer (a reader's view, or a created or reconfigured channel). */
type ChannelLineFields = Pick<Channel, 'name' | 'lastSeq' | 'summariser' | 'summaryThreshold' | 'members' | 'description'>;

export function channelLine(c: ChannelLineFields): string {
  const access = c.members ? `private: ${c.members.join(', ')}` : 'public';
  return `${c.name}\t${c.lastSeq} messages\t${c.summariser}, every ${c.summaryThreshold}\t${access}${c.description ? `\t${c.description}` : ''}`;
}

/** The answer that closes a request of this type (DESIGN §2): RESPONSE for a QUERY, DONE otherwise. */
const CLOSING_ANSWER: Record<string, string> = { QUERY: 'RESPONSE' };

/** A shell word (single-quoted unless plain), so a printed command can be pasted. */
const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * Each obligation as a line a person or a model can act on, then the command that answers it:
 * `[channel] #seq QUERY from bob, to you (corr q-1): the question`.
 */
export function obligationLines(items: readonly InboxItem[]): string[] {
  return items.flatMap((o) => {
    const whose = o.reason === 'owed' ? 'to you' : 'open to anyone';
    // A redacted request reads as its tombstone (DESIGN §10): the obligation stays, its text is gone.
    const content = o.redacted ? paint('dim', `[redacted by ${o.redacted.by}: ${o.redacted.reason}]`) : (o.content ?? '').replace(/\n/g, '\n    ');
    const answer = CLOSING_ANSWER[o.type] ?? 'DONE';
    return [
      `[${o.channel}] #${o.seq} ${paint(TYPE_STYLES[o.type] ?? 'white', o.type)} from ${paint('bold', o.opener)}, ${whose} (corr ${o.correlationId}): ${content}`,
      paint('dim', `    answer: qhorus post ${shellWord(o.channel)} '…' --type ${answer} --correlation-id ${shellWord(o.correlationId)} --reply-to ${o.seq}`),
    ];
  });
}

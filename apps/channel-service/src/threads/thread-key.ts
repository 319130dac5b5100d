import { Message, TERMINAL_TYPES } from '@qhorus/api';

/**
 * A thread is identified by its channel and correlation id. The channel id is a number, so the
 * first ':' separates the two even when the correlation id contains colons.
 */
export function threadKey(channelId: string, correlationId: string): string {
  return `${channelId}:${correlationId}`;
}

export function parseThreadKey(key: string): { channelId: string; correlationId: string } {
  const at = key.indexOf(':');
  return { channelId: key.slice(0, at), correlationId: key.slice(at + 1) };
}

/**
 * Whether a message closes its thread: DONE, FAILURE and HANDOFF (DESIGN §2's terminal types).
 * HANDOFF is included on purpose: the moment a thread changes hands is when its new owner most
 * needs a summary. If the thread then goes on and ends with DONE/FAILURE, it is summarised again,
 * in full, and that summary replaces the HANDOFF one.
 */
export function closesThread(message: Pick<Message, 'type'>): boolean {
  return TERMINAL_TYPES.has(message.type);
}

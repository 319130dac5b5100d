import { ChannelStreamEvent, MESSAGE_POSTED } from './channel-stream-event';

/** Separates the publishing instance's id from the JSON list of events in a bus message. */
export const ORIGIN_SEPARATOR = '\n';
/** Upper bound on the events of one bus message (a burst is split into several). */
export const MAX_EVENTS_PER_MESSAGE = 256;

/** A message too large for one bus message travels as its address; the receiver reads it from Postgres. */
export interface MessageReference {
  channelId: string;
  name: typeof MESSAGE_POSTED;
  ref: { channel: string; seq: number };
}
export type WireEvent = ChannelStreamEvent | MessageReference;

/** Reads a posted message back as its stream event (null when it is not there). */
export type PostedMessageReader = (channelId: string, channelName: string, seq: number) => Promise<ChannelStreamEvent | null>;

/** One bus message of events, and how many it carries. */
export interface EventBatch {
  payload: string;
  count: number;
}

/**
 * `events`, in order, as bus messages `<origin>\n<JSON list>` of at most MAX_EVENTS_PER_MESSAGE
 * events and `maxBytes` bytes (Postgres' NOTIFY limit; Redis has none to speak of). A posted
 * message too large for one bus message is sent as its reference; any other event that large is
 * left out, and `leftOut` told.
 */
export function eventBatches(ownPrefix: string, events: ChannelStreamEvent[], maxBytes: number, leftOut: (event: ChannelStreamEvent) => void): EventBatch[] {
  const budget = maxBytes - Buffer.byteLength(ownPrefix) - 2; // the list's brackets
  const batches: EventBatch[] = [];
  let batch: string[] = [];
  let bytes = 0;
  const send = () => {
    if (batch.length === 0) return;
    batches.push({ payload: `${ownPrefix}[${batch.join(',')}]`, count: batch.length });
    batch = [];
    bytes = 0;
  };
  for (const event of events) {
    let json = JSON.stringify(event);
    if (Buffer.byteLength(json) > budget) {
      if (event.name !== MESSAGE_POSTED) {
        leftOut(event);
        continue;
      }
      json = JSON.stringify(reference(event));
    }
    const size = Buffer.byteLength(json) + 1; // and its comma
    if (bytes + size > budget || batch.length === MAX_EVENTS_PER_MESSAGE) send();
    batch.push(json);
    bytes += size;
  }
  send();
  return batches;
}

/** The events in another instance's bus message (`<origin>\n<JSON list>`); nothing for anything malformed. */
export function parseEventList(payload: string): WireEvent[] {
  const at = payload.indexOf(ORIGIN_SEPARATOR);
  if (at < 0) return [];
  try {
    const events: unknown = JSON.parse(payload.slice(at + ORIGIN_SEPARATOR.length));
    return Array.isArray(events) ? events.filter((e): e is WireEvent => typeof e?.channelId === 'string') : [];
  } catch {
    return [];
  }
}

function reference(event: ChannelStreamEvent): MessageReference {
  return { channelId: event.channelId, name: MESSAGE_POSTED, ref: { channel: String(event.data.channel), seq: Number(event.data.seq) } };
}

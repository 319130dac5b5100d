import { createParser, EventSourceMessage } from 'eventsource-parser';
import { backoffDelay, sleep } from './backoff';
import type { components } from './generated/openapi';
import { QhorusError } from './qhorus-error';

export type MessageResponse = components['schemas']['MessageResponse'];
export type SummaryUpdatedEventData = components['schemas']['SummaryUpdatedEventData'];

/** One event of a channel's stream (DESIGN §6), its `id` as the service sent it. */
export type ChannelEvent =
  | { event: 'message.posted'; id: string; data: MessageResponse }
  | { event: 'summary.updated'; id: string; data: SummaryUpdatedEventData };

export interface EventStreamOptions {
  /** Resume after this event id (a message's seq, or `<coversThroughSeq>s<version>`). */
  lastEventId?: string;
  /** Start after this seq (the same as `lastEventId` = that seq). */
  afterSeq?: number;
  includeEvents?: boolean;
  /** Ends the stream (the iterator returns). */
  signal?: AbortSignal;
  /** First reconnect delay; doubles per failed attempt up to `maxReconnectDelayMs`. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** Called before each reconnect, with why the stream ended. */
  onReconnect?: (reason: string, attempt: number) => void;
}

export const DEFAULT_RECONNECT_DELAY_MS = 250;
export const DEFAULT_MAX_RECONNECT_DELAY_MS = 10_000;
const STREAM_EVENTS = new Set(['message.posted', 'summary.updated']);

export interface StreamTarget {
  url: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
}

/**
 * A channel's live events, reconnecting whenever the stream ends or fails (until `signal`
 * aborts, or the service refuses with a 4xx other than 429). Each reconnect sends
 * `Last-Event-ID` with the last id seen, so the service replays what was posted meanwhile; the
 * iterator also drops any message whose seq it has already yielded, so a replay that overlaps
 * never shows a message twice.
 */
export async function* channelEvents(target: StreamTarget, options: EventStreamOptions = {}): AsyncGenerator<ChannelEvent> {
  const { signal } = options;
  const baseDelay = options.reconnectDelayMs ?? DEFAULT_RECONNECT_DELAY_MS;
  const maxDelay = options.maxReconnectDelayMs ?? DEFAULT_MAX_RECONNECT_DELAY_MS;
  let lastEventId = options.lastEventId ?? (options.afterSeq !== undefined ? String(options.afterSeq) : undefined);
  const named = parseId(lastEventId);
  let lastSeq = options.afterSeq ?? named.seq;
  let lastVersion = named.version;
  let attempt = 0;
  const request = `GET ${target.url}`;
  while (!signal?.aborted) {
    let reason: string;
    try {
      const headers: Record<string, string> = { ...target.headers, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) };
      const res = await target.fetch(target.url, { headers, signal });
      if (!res.ok || !res.body) {
        const text = await res.text();
        const error = QhorusError.fromAnswer(res.status, res.statusText, parseJson(text), request, res.headers.get('retry-after'));
        if (!error.retryable) throw error;
        reason = error.message;
      } else {
        attempt = 0;
        for await (const event of parseStream(res.body)) {
          if (!event.event || !STREAM_EVENTS.has(event.event)) continue;
          const parsed = { event: event.event, id: event.id ?? '', data: JSON.parse(event.data) } as ChannelEvent;
          if (parsed.event === 'message.posted') {
            if (parsed.data.seq <= lastSeq) continue;
            lastSeq = parsed.data.seq;
          } else {
            if (parsed.data.version <= lastVersion) continue;
            lastVersion = parsed.data.version;
          }
          // Resume from everything shown: the newest seq, and the newest summary version (the id
          // grammar of DESIGN §6), whatever order the service sent them in.
          lastEventId = lastVersion > 0 ? `${lastSeq}s${lastVersion}` : String(lastSeq);
          yield parsed;
        }
        reason = 'the stream ended';
      }
    } catch (err) {
      if (signal?.aborted) return;
      if (err instanceof QhorusError) throw err;
      reason = err instanceof Error ? err.message : String(err);
    }
    if (signal?.aborted) return;
    options.onReconnect?.(reason, attempt + 1);
    await sleep(backoffDelay(attempt++, baseDelay, maxDelay), signal);
  }
}

/** What an event id names: `"42"` → seq 42; `"40s3"` → seq 40 and summary version 3. */
function parseId(id: string | undefined): { seq: number; version: number } {
  const m = id ? /^(\d+)(?:s(\d+))?$/.exec(id) : null;
  return { seq: m ? Number(m[1]) : 0, version: m?.[2] ? Number(m[2]) : 0 };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** SSE frames of a response body, as they arrive. */
async function* parseStream(body: ReadableStream<Uint8Array>): AsyncGenerator<EventSourceMessage> {
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => queue.push(e) });
  const decoder = new TextDecoder();
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    while (queue.length > 0) yield queue.shift() as EventSourceMessage;
  }
}

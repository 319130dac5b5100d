// Live channel events over Server-Sent Events. EventSource cannot send an Authorization header,
// so the stream is read with fetch() and parsed here. When the stream is unavailable the caller
// falls back to polling, and the stream is tried again later.

import { API, authHeaders, channelPath } from './api.js';

/**
 * Parses an SSE byte stream into {event, data, id} records (the WHATWG rules that matter:
 * `field: value` lines, a blank line ends an event, `:` lines are comments, data lines join).
 */
export function createSseParser(onEvent) {
  let buffer = '';
  let event = { event: 'message', data: [], id: undefined };
  const dispatch = () => {
    if (event.data.length > 0) onEvent({ event: event.event, data: event.data.join('\n'), id: event.id });
    event = { event: 'message', data: [], id: undefined };
  };
  return (chunk) => {
    buffer += chunk;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop();
    for (const line of lines) {
      if (line === '') dispatch();
      else if (line.startsWith(':')) continue;
      else {
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event.event = value;
        else if (field === 'data') event.data.push(value);
        else if (field === 'id') event.id = value;
      }
    }
  };
}

/**
 * Opens the channel's event stream; resolves when it ends (closed by the server, the network,
 * or `signal`). Rejects when it cannot be opened (no SSE endpoint, 401, network down).
 */
export async function streamChannelEvents(name, { signal, onOpen, onEvent }) {
  const res = await fetch(`${API}${channelPath(name)}/events`, {
    headers: { accept: 'text/event-stream', ...authHeaders() },
    signal,
    cache: 'no-store',
  });
  const type = res.headers.get('content-type') || '';
  if (!res.ok || !type.includes('text/event-stream') || !res.body) {
    throw new Error(`event stream unavailable (HTTP ${res.status})`);
  }
  onOpen();
  const parse = createSseParser((e) => {
    let data = e.data;
    try {
      data = JSON.parse(e.data);
    } catch {
      // not JSON: keep the text
    }
    onEvent(e.event, data);
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parse(value);
  }
}

'use strict';
// A minimal Server-Sent Events reader for the service's `GET /channels/{name}/events`.
const http = require('node:http');

const SSE_PROBE_TIMEOUT_MS = 2_000;
const EVENT_NAME = 'summary.updated';

/** Finds a numeric `coversThroughSeq` anywhere in an event payload. */
function coversOf(payload) {
  if (!payload || typeof payload !== 'object') return undefined;
  if (typeof payload.coversThroughSeq === 'number') return payload.coversThroughSeq;
  for (const v of Object.values(payload)) {
    const found = coversOf(v);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Opens the channel's SSE stream and calls onSummary(coversThroughSeq, clock()) for each
 * summary.updated; resolves to a closer, or null when the service has no SSE endpoint.
 */
function openSummaryEvents(baseUrl, token, channel, clock, onSummary) {
  const url = new URL(`/api/v1/channels/${channel}/events`, baseUrl);
  return new Promise((resolve) => {
    const req = http.get(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, (res) => {
      const type = String(res.headers['content-type'] ?? '');
      if (res.statusCode !== 200 || !type.includes('text/event-stream')) {
        res.resume();
        return resolve(null);
      }
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const at = clock();
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
          }
          let payload;
          try {
            payload = JSON.parse(data.join('\n'));
          } catch {
            continue;
          }
          const name = event !== 'message' ? event : payload?.type ?? payload?.event;
          const covers = coversOf(payload);
          if (name === EVENT_NAME && covers !== undefined) onSummary(covers, at);
        }
      });
      resolve(() => req.destroy());
    });
    req.on('error', () => resolve(null));
    req.setTimeout(SSE_PROBE_TIMEOUT_MS, () => req.destroy());
  });
}

module.exports = { openSummaryEvents };

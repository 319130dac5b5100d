/** A comment line this often keeps proxies and clients from timing an idle stream out. */
export const SSE_HEARTBEAT_MS = 15_000;
/** Sent as `retry:`: how long an EventSource waits before reconnecting. */
export const SSE_RETRY_MS = 3_000;
/** A client this far behind (bytes queued on its socket) is cut off rather than buffered forever. */
export const SSE_MAX_BUFFERED_BYTES = 1024 * 1024;
/** Live events held while a stream replays history from Postgres; a stream that falls further behind is closed (the client resumes with Last-Event-ID). */
export const SSE_MAX_HELD_EVENTS = 10_000;
/** Messages read from Postgres per replay query. */
export const SSE_REPLAY_PAGE = 500;

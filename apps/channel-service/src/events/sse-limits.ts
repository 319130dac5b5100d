/** A comment line this often keeps proxies and clients from timing an idle stream out. */
export const SSE_HEARTBEAT_MS = 15_000;
/** Sent as `retry:`: how long an EventSource waits before reconnecting. */
export const SSE_RETRY_MS = 3_000;
/** A client this far behind (bytes queued on its socket) is cut off rather than buffered forever. */
export const SSE_MAX_BUFFERED_BYTES = 1024 * 1024;

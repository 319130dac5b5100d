import { configSlice } from '../config-slice';

/** realtime/: the waits and event streams one agent may hold on this instance. */
export class RealtimeConfig extends configSlice((config) => ({
  /** Long polls (REST `waitMs`, MCP `wait_for_messages`) at once. */
  longPollsPerAgent: config.QHORUS_LONG_POLL_MAX_PER_AGENT,
  eventStreamsPerAgent: config.QHORUS_MAX_SSE_STREAMS_PER_AGENT,
})) {}

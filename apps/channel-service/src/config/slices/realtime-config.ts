import { AppConfig } from '../app-config';

/** realtime/: the waits and event streams one agent may hold on this instance. */
export class RealtimeConfig {
  /** Long polls (REST `waitMs`, MCP `wait_for_messages`) at once. */
  readonly longPollsPerAgent: number;
  readonly eventStreamsPerAgent: number;

  constructor(config: AppConfig) {
    this.longPollsPerAgent = config.QHORUS_LONG_POLL_MAX_PER_AGENT;
    this.eventStreamsPerAgent = config.QHORUS_MAX_SSE_STREAMS_PER_AGENT;
  }
}

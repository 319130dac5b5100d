import { configSlice } from '../config-slice';

/** mcp/: the tools' bounds. */
export class McpConfig extends configSlice((config) => ({
  /** Longest `wait_for_messages` timeout. */
  longPollMaxMs: config.QHORUS_LONG_POLL_MAX_MS,
})) {}

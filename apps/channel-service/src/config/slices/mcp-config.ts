import { AppConfig } from '../app-config';

/** mcp/: the tools' bounds. */
export class McpConfig {
  /** Longest `wait_for_messages` timeout. */
  readonly longPollMaxMs: number;

  constructor(config: AppConfig) {
    this.longPollMaxMs = config.QHORUS_LONG_POLL_MAX_MS;
  }
}

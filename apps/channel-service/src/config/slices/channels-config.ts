import { AppConfig } from '../app-config';

/** channels/: what a new channel gets by default, and how many one agent may create. */
export class ChannelsConfig {
  readonly defaultSummaryThreshold: number;
  /** `retention.maxAgeDays` of a channel created without one; null: kept for ever. */
  readonly defaultRetentionMaxAgeDays: number | null;
  readonly maxChannelsPerAgent: number;

  constructor(config: AppConfig) {
    this.defaultSummaryThreshold = config.QHORUS_SUMMARY_THRESHOLD;
    this.defaultRetentionMaxAgeDays = config.QHORUS_RETENTION_MAX_AGE_DAYS ?? null;
    this.maxChannelsPerAgent = config.QHORUS_MAX_CHANNELS_PER_AGENT;
  }
}

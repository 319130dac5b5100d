import { configSlice } from '../config-slice';

/** channels/: what a new channel gets by default, and how many one agent may create. */
export class ChannelsConfig extends configSlice((config) => ({
  defaultSummaryThreshold: config.QHORUS_SUMMARY_THRESHOLD,
  /** `retention.maxAgeDays` of a channel created without one; null: kept for ever. */
  defaultRetentionMaxAgeDays: config.QHORUS_RETENTION_MAX_AGE_DAYS ?? null,
  maxChannelsPerAgent: config.QHORUS_MAX_CHANNELS_PER_AGENT,
})) {}

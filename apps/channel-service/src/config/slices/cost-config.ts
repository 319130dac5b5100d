import { configSlice } from '../config-slice';

/** cost/: who may choose a model-backed summariser, its triggers' floors, and each channel's model budget. */
export class CostConfig extends configSlice((config) => ({
  llmProvider: config.QHORUS_LLM_PROVIDER,
  summariserPolicy: config.QHORUS_MODEL_SUMMARISER_POLICY,
  /** The floors of a model-backed channel's triggers. */
  minSummaryThreshold: config.QHORUS_MODEL_SUMMARY_MIN_THRESHOLD,
  minSummaryThresholdTokens: config.QHORUS_MODEL_SUMMARY_MIN_TOKENS,
  minUpdateAfterSeconds: config.QHORUS_MODEL_SUMMARY_MIN_SECONDS,
  /** Per channel: model calls per UTC clock hour, tokens per UTC day. */
  callsPerHour: config.QHORUS_MODEL_CALLS_PER_HOUR,
  tokensPerDay: config.QHORUS_MODEL_TOKENS_PER_DAY,
})) {}

import { AppConfig, ModelSummariserPolicy } from '../app-config';
import { LlmProviderName } from '../model-provider-config';

/** cost/: who may choose a model-backed summariser, its triggers' floors, and each channel's model budget. */
export class CostConfig {
  readonly llmProvider: LlmProviderName;
  readonly summariserPolicy: ModelSummariserPolicy;
  /** The floors of a model-backed channel's triggers. */
  readonly minSummaryThreshold: number;
  readonly minSummaryThresholdTokens: number;
  readonly minUpdateAfterSeconds: number;
  /** Per channel: model calls per UTC clock hour, tokens per UTC day. */
  readonly callsPerHour: number;
  readonly tokensPerDay: number;

  constructor(config: AppConfig) {
    this.llmProvider = config.QHORUS_LLM_PROVIDER;
    this.summariserPolicy = config.QHORUS_MODEL_SUMMARISER_POLICY;
    this.minSummaryThreshold = config.QHORUS_MODEL_SUMMARY_MIN_THRESHOLD;
    this.minSummaryThresholdTokens = config.QHORUS_MODEL_SUMMARY_MIN_TOKENS;
    this.minUpdateAfterSeconds = config.QHORUS_MODEL_SUMMARY_MIN_SECONDS;
    this.callsPerHour = config.QHORUS_MODEL_CALLS_PER_HOUR;
    this.tokensPerDay = config.QHORUS_MODEL_TOKENS_PER_DAY;
  }
}

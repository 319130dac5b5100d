/** What one model call cost, as the provider reported it (the Messages API's `usage`). */
export interface ModelUsage {
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/**
 * Meters the model calls a summariser makes for one channel (the service's per-channel budget).
 * A tier that calls a model awaits `admit` before each call — it rejects when the budget is spent,
 * and the call is then not made — and `record`s what each answered call cost.
 */
export interface ModelCallMeter {
  admit(model: string): Promise<void>;
  record(usage: ModelUsage): Promise<void>;
}

/** Which budget refused a call. */
export type ModelBudgetKind = 'calls_per_hour' | 'tokens_per_day';

/** A summary job's model call was made (with its usage) or refused by the channel's budget; for metrics. */
export class ModelCallEvent {
  static readonly NAME = 'summary.model-call';
  constructor(
    readonly channelName: string,
    /** A private channel is counted under the private label, never by name. */
    readonly privateChannel: boolean,
    /** The channel's summariser (`llm`, `tiered`, or a registered name). */
    readonly strategy: string,
    readonly outcome: 'made' | 'refused',
    readonly inputTokens: number,
    readonly outputTokens: number,
    readonly refusedBy: ModelBudgetKind | null = null,
  ) {}
}

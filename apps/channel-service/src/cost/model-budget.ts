import { ModelCallMeter, ModelUsage } from '@qhorus/api';
import { SummariserUnavailableError } from '@qhorus/blocks-summarisation';
import { CostConfig } from '../config/slices/cost-config';
import { ModelCallSpans } from '../telemetry/model-call-span';
import { ModelBudgetKind, ModelCallEvent } from './model-call.event';
import { ModelUsageNow, ModelUsageRepository } from './model-usage.repository';

/**
 * The channel's model budget is spent: no call is made. A SummariserUnavailableError, so `tiered`
 * falls back to its heuristic tier (saying so in `tierFallback`) and a plain `llm` channel commits
 * the step degraded (the state with the heuristic report; see SummaryJobRunner).
 */
export class ModelBudgetExhaustedError extends SummariserUnavailableError {
  constructor(
    message: string,
    readonly budget: ModelBudgetKind,
  ) {
    super(message);
    this.name = 'ModelBudgetExhaustedError';
  }
}

export interface MeteredChannel {
  id: string;
  name: string;
  summariser: string;
  members: string[] | null;
}

/**
 * One job's meter for one channel's model calls: reserves each call against the budget
 * (QHORUS_MODEL_CALLS_PER_HOUR, QHORUS_MODEL_TOKENS_PER_DAY), records each answer's tokens, and
 * keeps the summary slot's `degraded` field saying whether the budget stopped the model.
 */
export class ChannelModelMeter implements ModelCallMeter {
  private readonly spans: ModelCallSpans;
  private askedFor = false;

  constructor(
    private readonly channel: MeteredChannel,
    /** Whether the slot says `degraded` as the job starts (so a recovered budget clears it once). */
    private degraded: boolean,
    private readonly usage: ModelUsageRepository,
    private readonly config: CostConfig,
    private readonly emit: (event: ModelCallEvent) => void,
  ) {
    this.spans = new ModelCallSpans(config.llmProvider);
  }

  /** Whether a model call was asked for through this meter (let through or refused). */
  get asked(): boolean {
    return this.askedFor;
  }

  async admit(model: string): Promise<void> {
    this.askedFor = true;
    const { id } = this.channel;
    if (await this.usage.reserveCall(id, this.config.callsPerHour, this.config.tokensPerDay)) {
      if (this.degraded) await this.usage.clearDegraded(id);
      this.degraded = false;
      this.spans.started(model);
      return;
    }
    const { reason, budget } = explainRefusal(await this.usage.usage(id), this.config, new Date());
    await this.usage.markDegraded(id, reason);
    this.degraded = true;
    this.emit(this.event('refused', 0, 0, budget));
    throw new ModelBudgetExhaustedError(reason, budget);
  }

  async record(usage: ModelUsage): Promise<void> {
    this.spans.answered(usage);
    await this.usage.addTokens(this.channel.id, usage.inputTokens, usage.outputTokens);
    this.emit(this.event('made', usage.inputTokens, usage.outputTokens));
  }

  /** The job is done with the meter: a call still open never answered (its span ends as an error). */
  release(): void {
    this.spans.failed();
  }

  private event(outcome: 'made' | 'refused', inputTokens: number, outputTokens: number, refusedBy: ModelBudgetKind | null = null): ModelCallEvent {
    const { name, summariser, members } = this.channel;
    return new ModelCallEvent(name, !!members && members.length > 0, summariser, outcome, inputTokens, outputTokens, refusedBy);
  }
}

/** Which budget is spent, in words a reader of the summary understands, with when it renews. */
export function explainRefusal(usage: ModelUsageNow, config: CostConfig, now: Date): { reason: string; budget: ModelBudgetKind } {
  if (usage.tokensToday >= config.tokensPerDay) {
    const renews = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
    return {
      budget: 'tokens_per_day',
      reason: `model budget spent: ${usage.tokensToday} of ${config.tokensPerDay} tokens today (QHORUS_MODEL_TOKENS_PER_DAY); no model call until ${renews.toISOString()}`,
    };
  }
  const renews = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours() + 1));
  return {
    budget: 'calls_per_hour',
    reason: `model budget spent: ${Math.max(usage.callsThisHour, config.callsPerHour)} of ${config.callsPerHour} model calls this hour (QHORUS_MODEL_CALLS_PER_HOUR); no model call until ${renews.toISOString()}`,
  };
}

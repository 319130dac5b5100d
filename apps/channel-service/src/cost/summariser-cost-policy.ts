import { BadRequestException, ForbiddenException } from '@nestjs/common';
import { BUILT_IN_SUMMARISERS } from '@qhorus/blocks-channel-summary';
import { isAdmin, Principal } from '../auth/principal';
import { validationMessage } from '../common/validation.pipe';
import { CostConfig } from '../config/slices/cost-config';

/** The strategies that can call a model, hence cost money: `llm` always, `tiered` for large batches. */
export const MODEL_BACKED_SUMMARISERS: ReadonlySet<string> = new Set([BUILT_IN_SUMMARISERS.llm, BUILT_IN_SUMMARISERS.tiered]);

export const isModelBacked = (summariser: string): boolean => MODEL_BACKED_SUMMARISERS.has(summariser);

export interface SummariserChoice {
  /** The channel's summariser and triggers once the request is applied (null: that trigger is off). */
  summariser: string;
  summaryThreshold: number;
  summaryThresholdTokens: number | null;
  updateAfterSeconds: number | null;
  /** Whether this request sets `summariser` (create, or a PATCH naming it). */
  choosesSummariser: boolean;
  /** The trigger fields this request sets (all of them on create). */
  sets: ReadonlySet<TriggerField>;
  by: Principal;
  /** Who created (or is creating) the channel. */
  creator: string;
}

export type TriggerField = 'summaryThreshold' | 'summaryThresholdTokens' | 'updateAfterSeconds';
export const ALL_TRIGGER_FIELDS: ReadonlySet<TriggerField> = new Set(['summaryThreshold', 'summaryThresholdTokens', 'updateAfterSeconds']);

/** Each trigger's floor on a model-backed channel (a CostConfig field), and the knob that sets it. */
const TRIGGER_FLOORS: readonly { field: TriggerField; floor: 'minSummaryThreshold' | 'minSummaryThresholdTokens' | 'minUpdateAfterSeconds'; knob: string }[] = [
  { field: 'summaryThreshold', floor: 'minSummaryThreshold', knob: 'QHORUS_MODEL_SUMMARY_MIN_THRESHOLD' },
  { field: 'summaryThresholdTokens', floor: 'minSummaryThresholdTokens', knob: 'QHORUS_MODEL_SUMMARY_MIN_TOKENS' },
  { field: 'updateAfterSeconds', floor: 'minUpdateAfterSeconds', knob: 'QHORUS_MODEL_SUMMARY_MIN_SECONDS' },
];

/**
 * The cost guard at the validation layer: who may give a channel a model-backed summariser
 * (QHORUS_MODEL_SUMMARISER_POLICY: 403 naming it) and how soon each of its triggers may fire (a
 * floor per trigger, so no trigger can make a model call per message: 400 naming every field
 * below its floor). Checked before any write.
 */
export function assertSummariserChoiceAllowed(choice: SummariserChoice, config: CostConfig): void {
  if (!isModelBacked(choice.summariser)) return;
  if (choice.choosesSummariser && !mayChooseModel(choice.by, choice.creator, config)) {
    const who = config.summariserPolicy === 'admin' ? 'the admin' : "the channel's creator or the admin";
    throw new ForbiddenException(
      `Only ${who} may choose the model-backed summariser '${choice.summariser}' (QHORUS_MODEL_SUMMARISER_POLICY=${config.summariserPolicy})`,
    );
  }
  const details = [];
  for (const { field, floor, knob } of TRIGGER_FLOORS) {
    const value = choice[field];
    const min = config[floor];
    if (!(choice.choosesSummariser || choice.sets.has(field)) || value === null || value >= min) continue;
    details.push({ field, problems: [`${field} must be at least ${min} with the model-backed summariser '${choice.summariser}' (${knob})`] });
  }
  if (details.length > 0) {
    throw new BadRequestException({ message: validationMessage(details), details });
  }
}

function mayChooseModel(by: Principal, creator: string, config: CostConfig): boolean {
  if (isAdmin(by)) return true;
  switch (config.summariserPolicy) {
    case 'anyone':
      return true;
    case 'creator':
      return by.name === creator;
    case 'admin':
      return false;
  }
}

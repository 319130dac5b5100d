import { BadRequestException, ForbiddenException } from '@nestjs/common';
import { BUILT_IN_SUMMARISERS } from '@qhorus/blocks-channel-summary';
import { isAdmin, Principal } from '../auth/principal';
import { AppConfig } from '../config/app-config';

/** The strategies that can call a model, hence cost money: `llm` always, `tiered` for large batches. */
export const MODEL_BACKED_SUMMARISERS: ReadonlySet<string> = new Set([BUILT_IN_SUMMARISERS.llm, BUILT_IN_SUMMARISERS.tiered]);

export const isModelBacked = (summariser: string): boolean => MODEL_BACKED_SUMMARISERS.has(summariser);

export interface SummariserChoice {
  /** The channel's summariser and threshold once the request is applied. */
  summariser: string;
  summaryThreshold: number;
  /** Whether this request sets `summariser` (create, or a PATCH naming it). */
  choosesSummariser: boolean;
  /** Whether this request sets `summaryThreshold` (or creates the channel). */
  setsThreshold: boolean;
  by: Principal;
  /** Who created (or is creating) the channel. */
  creator: string;
}

/**
 * The cost guard at the validation layer: who may give a channel a model-backed summariser
 * (QHORUS_MODEL_SUMMARISER_POLICY: 403 naming it) and how low its threshold may go
 * (QHORUS_MODEL_SUMMARY_MIN_THRESHOLD: 400 naming `summaryThreshold`). Checked before any write.
 */
export function assertSummariserChoiceAllowed(choice: SummariserChoice, config: AppConfig): void {
  if (!isModelBacked(choice.summariser)) return;
  if (choice.choosesSummariser && !mayChooseModel(choice.by, choice.creator, config)) {
    const who = config.QHORUS_MODEL_SUMMARISER_POLICY === 'admin' ? 'the admin' : "the channel's creator or the admin";
    throw new ForbiddenException(
      `Only ${who} may choose the model-backed summariser '${choice.summariser}' (QHORUS_MODEL_SUMMARISER_POLICY=${config.QHORUS_MODEL_SUMMARISER_POLICY})`,
    );
  }
  const min = config.QHORUS_MODEL_SUMMARY_MIN_THRESHOLD;
  if ((choice.choosesSummariser || choice.setsThreshold) && choice.summaryThreshold < min) {
    const problem = `summaryThreshold must be at least ${min} with the model-backed summariser '${choice.summariser}' (QHORUS_MODEL_SUMMARY_MIN_THRESHOLD)`;
    throw new BadRequestException({ message: `Invalid request: ${problem}`, details: [{ field: 'summaryThreshold', problems: [problem] }] });
  }
}

function mayChooseModel(by: Principal, creator: string, config: AppConfig): boolean {
  if (isAdmin(by)) return true;
  switch (config.QHORUS_MODEL_SUMMARISER_POLICY) {
    case 'anyone':
      return true;
    case 'creator':
      return by.name === creator;
    case 'admin':
      return false;
  }
}

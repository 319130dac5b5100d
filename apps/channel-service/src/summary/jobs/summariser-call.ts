import { SummaryResult } from '@qhorus/api';
import { withAbortableTimeout } from '../../common/with-timeout';
import { SummaryConfig } from '../../config/slices/summary-config';

/**
 * One summariser call of a summary job (a channel's step, a thread's chunk), bounded by
 * QHORUS_SUMMARY_TIMEOUT_MS: past it the call's signal is aborted and the job waits (within
 * QHORUS_SUMMARY_ABORT_GRACE_MS) for it to end, so the retry that follows never runs alongside it.
 * Its answer is checked once, where it is made: `ChannelSummariser.update` checks a channel
 * strategy's (libs/blocks-channel-summary), the closed-thread job a thread summariser's.
 */
export async function callSummariser(
  call: (signal: AbortSignal) => Promise<SummaryResult>,
  what: string,
  config: SummaryConfig,
): Promise<SummaryResult> {
  return withAbortableTimeout(call, config.callTimeoutMs, config.abortGraceMs, what);
}

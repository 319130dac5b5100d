import { SummaryResult } from '@qhorus/api';
import { assertValidSummary } from '@qhorus/blocks-channel-summary';
import { withAbortableTimeout } from '../../common/with-timeout';
import { SummaryConfig } from '../../config/slices/summary-config';

/**
 * One summariser call of a summary job (a channel's step, a thread's chunk), the one place its
 * answer is checked: bounded by QHORUS_SUMMARY_TIMEOUT_MS — past it the call's signal is aborted
 * and the job waits (within QHORUS_SUMMARY_ABORT_GRACE_MS) for it to end, so the retry that
 * follows never runs alongside it — and validated before anything is merged or stored (blank
 * text or a non-string annotation fails the job, naming the summariser).
 */
export async function callSummariser(
  call: (signal: AbortSignal) => Promise<SummaryResult>,
  summariser: string,
  what: string,
  config: SummaryConfig,
): Promise<SummaryResult> {
  const result = await withAbortableTimeout(call, config.callTimeoutMs, config.abortGraceMs, what);
  assertValidSummary(result, summariser);
  return result;
}

import { SummaryResult } from '@qhorus/api';
import { BUILT_IN_SUMMARISER_NAMES, InvalidSummaryError } from '@qhorus/blocks-channel-summary';
import { SummariserUnavailableError } from '@qhorus/blocks-summarisation';
import { TimeoutError, withAbortableTimeout } from '../../common/with-timeout';
import { SummaryConfig } from '../../config/slices/summary-config';

/**
 * A summariser a domain team registered failed. Its own words may quote what it read (a parse
 * error's snippet, "cannot summarise: <message>"), and logs, spans and the queue's failed-job
 * record (BullMQ keeps it in Redis) carry no message content: so its `message` names the
 * summariser and the error's class only, and its words are `detail`, kept only with the summary
 * (`lastError`, a thread's `summary_error`, shown to the channel's readers, cleared by a
 * redaction). `detail` is a private field: a logger serialising the error never sees it.
 */
export class RegisteredSummariserError extends Error {
  readonly #detail: string;

  constructor(summariser: string, cause: unknown) {
    const kind = cause instanceof Error ? cause.name : typeof cause;
    super(`summariser '${summariser}' failed (${kind}); its message is kept with the summary, not logged`);
    this.name = 'RegisteredSummariserError';
    this.#detail = `summariser '${summariser}' failed: ${cause instanceof Error ? cause.message : String(cause)}`;
  }

  get detail(): string {
    return this.#detail;
  }
}

/** Errors Qhorus raises around a summariser's answer (a timeout, an invalid answer, unavailable): content-free, passed on as they are. */
const QHORUS_ERRORS = [TimeoutError, InvalidSummaryError, SummariserUnavailableError];

/** Whether `strategy` is one of Qhorus's own (its errors are written without content). */
export const isBuiltInSummariser = (strategy: string): boolean => BUILT_IN_SUMMARISER_NAMES.includes(strategy);

/**
 * One summariser call of a summary job (a channel's step, a thread's chunk), bounded by
 * QHORUS_SUMMARY_TIMEOUT_MS: past it the call's signal is aborted and the job waits (within
 * QHORUS_SUMMARY_ABORT_GRACE_MS) for it to end, so the retry that follows never runs alongside it.
 * Its answer is checked once, where it is made: `ChannelSummariser.update` checks a channel
 * strategy's (libs/blocks-channel-summary), the closed-thread job a thread summariser's.
 * `registered` names a strategy a domain team registered (null: one of Qhorus's own): its
 * failures become RegisteredSummariserError.
 */
export async function callSummariser(
  call: (signal: AbortSignal) => Promise<SummaryResult>,
  what: string,
  config: SummaryConfig,
  registered: string | null,
): Promise<SummaryResult> {
  try {
    return await withAbortableTimeout(call, config.callTimeoutMs, config.abortGraceMs, what);
  } catch (err) {
    if (registered === null || QHORUS_ERRORS.some((own) => err instanceof own)) throw err;
    throw new RegisteredSummariserError(registered, err);
  }
}

/** The text a failed job keeps with the summary (`lastError`, `summary_error`): a registered summariser's own words included. */
export function summaryErrorText(err: unknown): string {
  if (err instanceof RegisteredSummariserError) return err.detail;
  return err instanceof Error ? err.message : String(err);
}

import { configSlice } from '../config-slice';

/** lifecycle/: redaction and deletion. */
export class LifecycleConfig extends configSlice((config) => ({
  /** Longest reason a redaction takes. */
  redactionReasonMaxChars: config.QHORUS_REDACTION_REASON_MAX_CHARS,
})) {}

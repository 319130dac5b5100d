import { AppConfig } from '../app-config';

/** lifecycle/: redaction and deletion. */
export class LifecycleConfig {
  /** Longest reason a redaction takes. */
  readonly redactionReasonMaxChars: number;

  constructor(config: AppConfig) {
    this.redactionReasonMaxChars = config.QHORUS_REDACTION_REASON_MAX_CHARS;
  }
}

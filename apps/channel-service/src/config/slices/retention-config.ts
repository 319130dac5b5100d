import { AppConfig } from '../app-config';

/** retention/: the retention pass. */
export class RetentionConfig {
  /** How often the pass runs (on worker processes only: `runsWorker`). */
  readonly sweepMs: number;
  readonly runsWorker: boolean;
  /** Due channels per batch (one transaction). */
  readonly batchChannels: number;
  /** Messages one channel's step removes at most. */
  readonly batchMessages: number;

  constructor(config: AppConfig) {
    this.sweepMs = config.QHORUS_RETENTION_SWEEP_MS;
    this.runsWorker = config.runsWorker;
    this.batchChannels = config.QHORUS_RETENTION_BATCH;
    this.batchMessages = config.QHORUS_RETENTION_BATCH_MESSAGES;
  }
}

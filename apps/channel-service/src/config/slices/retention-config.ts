import { configSlice } from '../config-slice';

/** retention/: the retention pass. */
export class RetentionConfig extends configSlice((config) => ({
  /** How often the pass runs (on worker processes only: `runsWorker`). */
  sweepMs: config.QHORUS_RETENTION_SWEEP_MS,
  runsWorker: config.runsWorker,
  /** Due channels per batch (one transaction). */
  batchChannels: config.QHORUS_RETENTION_BATCH,
  /** Messages one channel's step removes at most. */
  batchMessages: config.QHORUS_RETENTION_BATCH_MESSAGES,
})) {}

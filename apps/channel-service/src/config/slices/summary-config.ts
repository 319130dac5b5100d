import { configSlice } from '../config-slice';

/** summary/: summary jobs (a channel's slot, a closed thread), the sweep that finds due channels, and the history. */
export class SummaryConfig extends configSlice((config) => ({
  /** Messages a summariser reads per step. */
  chunkSize: config.QHORUS_SUMMARY_CHUNK_SIZE,
  /** One summariser call's bound, and how long an aborted call is waited for to end. */
  callTimeoutMs: config.QHORUS_SUMMARY_TIMEOUT_MS,
  abortGraceMs: config.QHORUS_SUMMARY_ABORT_GRACE_MS,
  /** Summary versions kept per channel. */
  historyKeep: config.QHORUS_SUMMARY_HISTORY_KEEP,
  /** How long a channel whose summary job failed is left alone by the triggers (AppConfig.summaryFailureBackoffMs). */
  failureBackoffMs: config.summaryFailureBackoffMs,
  /** The sweep's period, and the most due channels one round enqueues. */
  sweepIntervalMs: config.QHORUS_SWEEP_INTERVAL_MS,
  sweepBatch: config.QHORUS_SWEEP_BATCH,
  /** Whether this process runs the jobs and the sweep. */
  runsWorker: config.runsWorker,
})) {}

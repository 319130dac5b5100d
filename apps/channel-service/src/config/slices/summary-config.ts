import { AppConfig } from '../app-config';

/** summary/: summary jobs (a channel's slot, a closed thread), the sweep that finds due channels, and the history. */
export class SummaryConfig {
  /** Messages a summariser reads per step. */
  readonly chunkSize: number;
  /** One summariser call's bound, and how long an aborted call is waited for to end. */
  readonly callTimeoutMs: number;
  readonly abortGraceMs: number;
  /** Summary versions kept per channel. */
  readonly historyKeep: number;
  /** How long a channel whose summary job failed is left alone by the triggers (AppConfig.summaryFailureBackoffMs). */
  readonly failureBackoffMs: number;
  /** The sweep's period, and the most due channels one round enqueues. */
  readonly sweepIntervalMs: number;
  readonly sweepBatch: number;
  /** Whether this process runs the jobs and the sweep. */
  readonly runsWorker: boolean;

  constructor(config: AppConfig) {
    this.chunkSize = config.QHORUS_SUMMARY_CHUNK_SIZE;
    this.callTimeoutMs = config.QHORUS_SUMMARY_TIMEOUT_MS;
    this.abortGraceMs = config.QHORUS_SUMMARY_ABORT_GRACE_MS;
    this.historyKeep = config.QHORUS_SUMMARY_HISTORY_KEEP;
    this.failureBackoffMs = config.summaryFailureBackoffMs;
    this.sweepIntervalMs = config.QHORUS_SWEEP_INTERVAL_MS;
    this.sweepBatch = config.QHORUS_SWEEP_BATCH;
    this.runsWorker = config.runsWorker;
  }
}

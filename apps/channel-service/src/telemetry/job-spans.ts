import { annotateSpan } from './spans';

/** A channel's summary-slot job; linked to the post that enqueued it (a span link, DESIGN §13). */
export const SUMMARY_JOB_SPAN = 'qhorus.summary.job';
/** A closed thread's summary job. */
export const THREAD_SUMMARY_JOB_SPAN = 'qhorus.thread.summary.job';
export const CHANNEL_ID_ATTRIBUTE = 'qhorus.channel_id';
export const ATTEMPT_ATTRIBUTE = 'qhorus.job.attempt';

/** What a summary job covered: the seq range it summarised, its steps and the version it left. */
export function annotateSummaryJob(job: { channel: string; fromSeq: number; throughSeq: number; steps: number; version: number; tier: string }): void {
  annotateSpan({
    'qhorus.channel': job.channel,
    'qhorus.summary.from_seq': job.fromSeq,
    'qhorus.summary.through_seq': job.throughSeq,
    'qhorus.summary.steps': job.steps,
    'qhorus.summary.version': job.version,
    'qhorus.summary.tier': job.tier,
  });
}

import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { MessagePostedEvent } from '../messages/message-posted.event';
import { SummaryJobFinishedEvent } from '../summary/summary-job-finished.event';
import { SummaryUpdatedEvent } from '../summary/summary-updated.event';
import { QhorusMetrics } from './qhorus-metrics';

/** The job runner marks its commits `summariser:<name>`; anything else is a person's override. */
const JOB_UPDATER_PREFIX = 'summariser:';

/** Counts domain events. Synchronous and cheap: nothing here may slow a post down. */
@Injectable()
export class MetricsListener {
  constructor(private readonly metrics: QhorusMetrics) {}

  @OnEvent(MessagePostedEvent.NAME, { suppressErrors: true })
  onMessagePosted(event: MessagePostedEvent): void {
    this.metrics.messagesPosted.inc({ type: event.message.type });
  }

  @OnEvent(SummaryUpdatedEvent.NAME, { suppressErrors: true })
  onSummaryUpdated(event: SummaryUpdatedEvent): void {
    this.metrics.summaryUpdates.inc({ source: event.updatedBy.startsWith(JOB_UPDATER_PREFIX) ? 'job' : 'override' });
  }

  @OnEvent(SummaryJobFinishedEvent.NAME, { suppressErrors: true })
  onSummaryJobFinished(event: SummaryJobFinishedEvent): void {
    this.metrics.summaryJobs.inc({ outcome: event.outcome, tier: event.tier });
    this.metrics.summaryJobDuration.observe({ outcome: event.outcome }, event.durationSeconds);
  }
}

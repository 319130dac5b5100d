import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { ModelCallEvent } from '../cost/model-call.event';
import { MessagePostedEvent } from '../message-store/message-posted.event';
import { PRIVATE_CHANNELS_LABEL } from './channel-backlog.reader';
import { SummaryJobFinishedEvent } from '../summary/summary-job-finished.event';
import { SummaryUpdatedEvent } from '../summary/summary-updated.event';
import { QhorusMetrics } from './qhorus-metrics';

/** The job runner marks its commits `summariser:<name>`; anything else is a person's override. */
const JOB_UPDATER_PREFIX = 'summariser:';

/** Past this many channels with model calls, further ones are counted under OTHER_CHANNELS_LABEL (bounded cardinality). */
export const MODEL_METRIC_MAX_CHANNELS = 100;
export const OTHER_CHANNELS_LABEL = '_other';

/** Counts domain events. Synchronous and cheap: nothing here may slow a post down. */
@Injectable()
export class MetricsListener {
  private readonly modelChannels = new Set<string>();

  constructor(private readonly metrics: QhorusMetrics) {}

  @OnEvent(ModelCallEvent.NAME, { suppressErrors: true })
  onModelCall(event: ModelCallEvent): void {
    const labels = { strategy: event.strategy, channel: this.modelChannelLabel(event) };
    if (event.outcome === 'refused') {
      this.metrics.modelCallsRefused.inc({ ...labels, budget: event.refusedBy ?? 'unknown' });
      return;
    }
    this.metrics.modelCalls.inc(labels);
    this.metrics.modelTokens.inc({ ...labels, kind: 'input' }, event.inputTokens);
    this.metrics.modelTokens.inc({ ...labels, kind: 'output' }, event.outputTokens);
  }

  /** The same rule as the backlog gauge: a private channel is never named. */
  private modelChannelLabel(event: ModelCallEvent): string {
    if (event.privateChannel) return PRIVATE_CHANNELS_LABEL;
    if (this.modelChannels.has(event.channelName)) return event.channelName;
    if (this.modelChannels.size >= MODEL_METRIC_MAX_CHANNELS) return OTHER_CHANNELS_LABEL;
    this.modelChannels.add(event.channelName);
    return event.channelName;
  }

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

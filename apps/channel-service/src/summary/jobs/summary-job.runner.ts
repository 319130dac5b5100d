import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { SummaryResult, SummaryUpdateContext } from '@qhorus/api';
import { BUILT_IN_SUMMARISERS, ChannelSummariser, SummariserRegistry } from '@qhorus/blocks-channel-summary';
import { SummaryConfig } from '../../config/slices/summary-config';
import { isModelBacked } from '../../cost/summariser-cost-policy';
import { annotateSummaryJob } from '../../telemetry/job-spans';
import { MessageReadsRepository } from '../../message-store/message-reads.repository';
import { previousResult, SummarySlot } from '../channel-summary.entity';
import { OpenThreadsGrounding } from '../open-threads-grounding';
import { DueChannel, StaleSummaryVersionError, SummaryRepository } from '../summary.repository';
import { NO_TIER, SummaryJobFinishedEvent, SummaryJobOutcome } from '../summary-job-finished.event';
import { SummaryUpdatedEvent } from '../summary-updated.event';
import { ChannelModelMeters } from './channel-model-meters';
import { foldInChunks } from './fold-in-chunks';
import { callSummariser, isBuiltInSummariser, summaryErrorText } from './summariser-call';

/**
 * One summary job: summarise the backlog (coversThroughSeq, lastSeq] as read at the start, in
 * bounded chunks (each chunk a running-summary step, so total work is linear in the channel's
 * length), committing each step under a version check. Messages posted meanwhile stay after the
 * watermark for the next job. On failure the slot is untouched except `lastError` — but a plain
 * `llm` channel whose model fails (error, timeout, blank answer, no key, spent budget) commits a
 * degraded step instead (DESIGN §3): the tracker's state with the heuristic report as the text,
 * `lastError` and `degraded` saying why, so the failure cooldown still holds; later chunks of the
 * same job degrade without calling the model again.
 */
@Injectable()
export class SummaryJobRunner {
  private readonly logger = new Logger(SummaryJobRunner.name);

  constructor(
    private readonly messages: MessageReadsRepository,
    private readonly summaries: SummaryRepository,
    private readonly summarisers: SummariserRegistry,
    private readonly config: SummaryConfig,
    private readonly events: EventEmitter2,
    private readonly meters: ChannelModelMeters,
    private readonly grounding: OpenThreadsGrounding,
  ) {}

  /**
   * Runs the job on a channel found due (`SummaryRepository.findDue`, which read the first chunk).
   * Returns whether the channel was due again after the last commit, or undefined if nothing was committed.
   */
  async run({ channel, slot: startSlot, firstChunk }: DueChannel): Promise<boolean | undefined> {
    const channelId = channel.id;
    let slot = startSlot;
    let dueAgain: boolean | undefined;
    const target = channel.lastSeq;
    const startedAt = performance.now();
    let tier = NO_TIER;
    let steps = 0;
    /** Why this job's model failed (a plain `llm` channel only): the remaining chunks degrade too. */
    let modelFailure: string | null = null;
    // Every model call of this job goes through the channel's budget (a spent one: no call, `degraded` says why).
    const modelCalls = this.meters.meterFor(channel, startSlot.degraded !== null);
    try {
      await foldInChunks({
        channelName: channel.name,
        afterSeq: slot.coversThroughSeq,
        throughSeq: target,
        chunkSize: this.config.chunkSize,
        read: (afterSeq) => this.messages.range(channelId, afterSeq, target, this.config.chunkSize, true),
        firstChunk,
        step: async (batch) => {
          const hook = this.summarisers.hookFor(channel.summariser);
          const coversThroughSeq = slot.coversThroughSeq;
          const previous = await this.grounding.previousFor(channelId, hook, previousResult(slot), coversThroughSeq, batch);
          const step: SummaryUpdateContext = { channel, previous, coversThroughSeq, messages: batch, modelCalls };
          let result: SummaryResult;
          if (modelFailure === null) {
            try {
              result = await this.summarise(hook, step, channel.summariser);
            } catch (err) {
              if (channel.summariser !== BUILT_IN_SUMMARISERS.llm) throw err;
              modelFailure = err instanceof Error ? err.message : String(err);
              this.logger.warn({ channel: channel.name, coversThroughSeq, err: modelFailure }, 'model failed; committing the state with the heuristic report (degraded)');
              result = hook.degrade(step, modelFailure);
            }
          } else {
            result = hook.degrade(step, modelFailure);
          }
          // A strategy that calls no model (the channel was switched away from one): `degraded` no longer applies.
          const clearDegraded = modelFailure === null && slot.degraded !== null && !isModelBacked(channel.summariser) && !modelCalls.asked;
          ({ slot, dueAgain } = await this.commitOrReload(channel.name, slot, result, batch[batch.length - 1].seq, `summariser:${channel.summariser}`, modelFailure, clearDegraded));
          tier = result.annotations?.tier ?? tier;
          steps++;
          return slot.coversThroughSeq;
        },
      });
    } catch (err) {
      // The log gets the error's message, which a registered summariser's error keeps content-free; lastError its full text.
      this.logger.warn({ channel: channel.name, coversThroughSeq: slot.coversThroughSeq, err: err instanceof Error ? err.message : String(err) }, 'summary step failed');
      this.emitFinished(channelId, channel.name, 'failure', tier, startedAt, steps);
      modelCalls.release();
      await this.summaries.recordError(channelId, summaryErrorText(err));
      throw err;
    }
    this.emitFinished(channelId, channel.name, modelFailure === null ? 'success' : 'degraded', tier, startedAt, steps);
    annotateSummaryJob({ channel: channel.name, fromSeq: startSlot.coversThroughSeq + 1, throughSeq: slot.coversThroughSeq, steps, version: slot.version, tier });
    return dueAgain;
  }

  /** One step of the channel's strategy (`update` checks its answer). */
  private summarise(hook: ChannelSummariser, step: SummaryUpdateContext, summariser: string): Promise<SummaryResult> {
    return callSummariser((signal) => hook.update({ ...step, signal }), `summariser '${summariser}'`, this.config, isBuiltInSummariser(summariser) ? null : summariser);
  }

  /** For metrics: one event per job, whatever its outcome. */
  private emitFinished(channelId: string, channelName: string, outcome: SummaryJobOutcome, tier: string, startedAt: number, steps: number): void {
    const seconds = (performance.now() - startedAt) / 1000;
    this.events.emit(SummaryJobFinishedEvent.NAME, new SummaryJobFinishedEvent(channelId, channelName, outcome, tier, seconds, steps));
  }

  /**
   * Commits the step; if another writer (a manual override) won, continue from its watermark
   * (and whether the channel is due again is then unknown).
   */
  private async commitOrReload(
    channelName: string,
    slot: SummarySlot,
    result: SummaryResult,
    throughSeq: number,
    by: string,
    degraded: string | null,
    clearDegraded: boolean,
  ): Promise<{ slot: SummarySlot; dueAgain: boolean | undefined }> {
    try {
      const { slot: committed, dueAgain } = await this.summaries.commit({
        channelId: slot.channelId,
        historyKeep: this.config.historyKeep,
        expectedVersion: slot.version,
        result,
        coversFromSeq: slot.coversThroughSeq + 1,
        coversThroughSeq: throughSeq,
        updatedBy: by,
        degraded,
        clearDegraded,
      });
      this.events.emit(
        SummaryUpdatedEvent.NAME,
        new SummaryUpdatedEvent(slot.channelId, channelName, committed.version, committed.coversThroughSeq, by),
      );
      return { slot: committed, dueAgain };
    } catch (err) {
      if (!(err instanceof StaleSummaryVersionError)) throw err;
      this.logger.log({ channelId: slot.channelId }, 'summary changed under the job; continuing from the new watermark');
      return { slot: (await this.summaries.findSlot(slot.channelId)) ?? slot, dueAgain: undefined };
    }
  }
}

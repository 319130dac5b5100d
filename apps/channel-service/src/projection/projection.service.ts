import { BadRequestException, Injectable } from '@nestjs/common';
import { Principal } from '../auth/principal';
import { entityTag, ifNoneMatchHits } from '../common/entity-tag';
import { ChannelsService } from '../channels/channels.service';
import { SummaryRepository } from '../summary/summary.repository';
import { DEFAULT_CONTEXT_FORMAT } from './context-format';
import { heuristicDigester } from './digest';
import { ContextQuery } from './dto/context.query';
import { Projection, projectContext } from './project-context';
import { DEFAULT_CONTEXT_MAX_TOKENS, DEFAULT_KEEP_LAST, keepLastThatFits, PROJECTION_TAIL_LIMIT, requiredMaxTokens } from './projection-limits';
import { ProjectionRepository } from './projection.repository';

/** The JSON of `GET /channels/{name}/context` and of the `get_channel_context` tool. */
export interface ContextView extends Projection {
  channel: string;
  viewer: string;
  keepLast: number;
  maxTokens: number;
  lastSeq: number;
  /** Estimated tokens of the whole history verbatim: what the projection saves you. */
  historyTokens: number;
}

@Injectable()
export class ProjectionService {
  private readonly digester = heuristicDigester();

  constructor(
    private readonly channels: ChannelsService,
    private readonly summaries: SummaryRepository,
    private readonly reads: ProjectionRepository,
  ) {}

  async context(channelName: string, query: ContextQuery, by: Principal): Promise<ContextView> {
    return (await this.contextTagged(channelName, query, by, undefined)).view!;
  }

  /**
   * The projection and its ETag. The tag is decided by what the projection is built from (the
   * channel's last seq and content epoch, the summary version and watermark, the parameters), so
   * when the caller's `If-None-Match` still names it, no message is read and `view` is absent.
   */
  async contextTagged(channelName: string, query: ContextQuery, by: Principal, ifNoneMatch: string | undefined): Promise<{ view?: ContextView; tag: string }> {
    const maxTokens = query.maxTokens ?? DEFAULT_CONTEXT_MAX_TOKENS;
    const keepLast = this.keepLast(query.keepLast, maxTokens);
    const channel = await this.channels.get(channelName, by); // 404 when missing or private
    const slot = await this.summaries.findSlot(channel.id);
    const summary = { text: slot?.text ?? '', version: slot?.version ?? 0, coversThroughSeq: slot?.coversThroughSeq ?? 0 };
    const viewer = query.viewer ?? by.name;
    const format = query.format ?? DEFAULT_CONTEXT_FORMAT;
    const tagOf = (lastSeq: number): string => entityTag([channel.contentEpoch, lastSeq, summary.version, summary.coversThroughSeq, viewer, keepLast, maxTokens, format]);
    const currentTag = tagOf(channel.lastSeq);
    if (ifNoneMatchHits(ifNoneMatch, currentTag)) return { tag: currentTag };
    const tail = await this.reads.tail(channel.id, channel.name, summary.coversThroughSeq, PROJECTION_TAIL_LIMIT);
    const projection = await projectContext({ summary, tail: tail.messages, tailComplete: tail.complete, viewer, keepLast, maxTokens, format }, this.digester);
    // Stored running totals (per message, at insert): the history is never read to count it.
    const historyTokens = tail.tokensThrough ?? slot?.coversThroughTokens ?? 0;
    const lastSeq = Math.max(channel.lastSeq, tail.messages[tail.messages.length - 1]?.seq ?? 0);
    // A post between the two reads is in the tail: the tag names what was read.
    return { view: { channel: channel.name, viewer, keepLast, maxTokens, lastSeq, historyTokens, ...projection }, tag: tagOf(lastSeq) };
  }

  /** An explicit keepLast must fit the budget (400 otherwise); the default shrinks to fit. */
  private keepLast(requested: number | undefined, maxTokens: number): number {
    if (requested === undefined) return Math.min(DEFAULT_KEEP_LAST, keepLastThatFits(maxTokens));
    const needed = requiredMaxTokens(requested);
    if (needed <= maxTokens) return requested;
    const message = `maxTokens ${maxTokens} cannot hold keepLast ${requested}: give maxTokens ≥ ${needed} or keepLast ≤ ${keepLastThatFits(maxTokens)}`;
    throw new BadRequestException({
      message,
      details: [
        { field: 'keepLast', problems: [`must be at most ${keepLastThatFits(maxTokens)} for maxTokens ${maxTokens}`] },
        { field: 'maxTokens', problems: [`must be at least ${needed} for keepLast ${requested}`] },
      ],
    });
  }
}

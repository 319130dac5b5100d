import { EMPTY_SUMMARY, Message, SummaryResult, SummaryUpdateContext, SummaryUpdateHook } from '@qhorus/api';
import { ContentSummariser } from '@qhorus/blocks-summarisation';

/**
 * Adapts a `ContentSummariser<Message>` to the summary slot's hook: the batch goes to the
 * delegate unchanged (same summariser as the pipeline path), grounded on the channel description.
 */
export class ChannelSummariser implements SummaryUpdateHook {
  constructor(private readonly delegate: ContentSummariser<Message>) {}

  async update(ctx: SummaryUpdateContext): Promise<SummaryResult> {
    // Nothing new: keep the slot as it is and spend nothing (an LLM tier would cost a call).
    if (ctx.messages.length === 0) return ctx.previous ?? EMPTY_SUMMARY;
    return this.delegate.summarise(ctx.messages, ctx.previous, { preamble: ctx.channel.description, signal: ctx.signal });
  }
}

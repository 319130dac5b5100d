import { ApiProperty } from '@nestjs/swagger';
import { CONTEXT_FORMATS, ContextFormat } from '../context-format';

/** A text content block: Anthropic's `{type: 'text', text}` block and OpenAI's text part alike. */
export class ProjectedTextBlock {
  @ApiProperty({ enum: ['text'] })
  type: 'text';
  text: string;
}

/** One message of the `anthropic` or `openai` format: that provider's own message shape. */
export class ProjectedMessage {
  @ApiProperty({ enum: ['user', 'assistant'] })
  role: 'user' | 'assistant';
  @ApiProperty({ type: () => [ProjectedTextBlock] })
  content: ProjectedTextBlock[];
}

/** The oldest messages after the watermark, condensed into a digest to fit the budget. */
export class ProjectionDigest {
  fromSeq: number;
  toSeq: number;
  /** How many messages were folded into it. */
  messages: number;
}

/** The JSON of `GET /channels/{name}/context` and of the `get_channel_context` tool (DESIGN §5). */
export class ContextResponse {
  channel: string;
  /** Whose point of view: their messages are the `assistant` turns. */
  viewer: string;
  keepLast: number;
  maxTokens: number;
  lastSeq: number;
  /** Estimated tokens of the whole history verbatim: what the projection saves you. */
  historyTokens: number;
  @ApiProperty({ enum: CONTEXT_FORMATS, enumName: 'ContextFormat' })
  format: ContextFormat;
  summaryVersion: number;
  coversThroughSeq: number;
  @ApiProperty({ type: () => ProjectionDigest, nullable: true })
  digest: ProjectionDigest | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Seq of the first message shown verbatim (null when none is)' })
  verbatimFromSeq: number | null;
  /** Kept messages cut to fit maxTokens (each ends with a marker saying how to read it whole). */
  truncatedSeqs: number[];
  projectedTokens: number;
  @ApiProperty({ type: () => [ProjectedMessage], required: false, description: '`anthropic` and `openai`: the provider\'s message array (absent for `text`)' })
  messages?: ProjectedMessage[];
  @ApiProperty({ type: String, required: false, description: '`text`: the rendered transcript (absent for the other formats)' })
  text?: string;
}

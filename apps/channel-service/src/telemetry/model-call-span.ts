import { Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { tracingEnabled } from './tracing';

/** GenAI semantic conventions (model spans): https://opentelemetry.io/docs/specs/semconv/gen-ai/ */
const GEN_AI = {
  system: 'gen_ai.system',
  operation: 'gen_ai.operation.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
} as const;
const CHAT_OPERATION = 'chat';

export interface ModelCallOutcome {
  model: string;
  inputTokens: number;
  outputTokens: number;
  finishReason?: string;
}

/**
 * One `gen_ai` span per model call of a job, from the budget's admission to the recorded usage.
 * A call that fails never records usage: its span ends (as an error) when the next call is
 * admitted or when the job lets go of the meter. Prompts and answers never go into the span.
 */
export class ModelCallSpans {
  private open: Span | null = null;

  constructor(private readonly provider: string) {}

  started(model: string): void {
    if (!tracingEnabled()) return;
    this.failed();
    this.open = trace.getTracer('qhorus').startSpan(`${CHAT_OPERATION} ${model}`, {
      kind: SpanKind.CLIENT,
      attributes: { [GEN_AI.system]: this.provider, [GEN_AI.operation]: CHAT_OPERATION, [GEN_AI.requestModel]: model },
    });
  }

  answered(outcome: ModelCallOutcome): void {
    const span = this.open;
    if (!span) return;
    this.open = null;
    span.setAttributes({
      [GEN_AI.responseModel]: outcome.model,
      [GEN_AI.inputTokens]: outcome.inputTokens,
      [GEN_AI.outputTokens]: outcome.outputTokens,
      ...(outcome.finishReason ? { [GEN_AI.finishReasons]: [outcome.finishReason] } : {}),
    });
    span.end();
  }

  /** Ends a call that never answered (an error, a timeout, an abort). */
  failed(): void {
    const span = this.open;
    if (!span) return;
    this.open = null;
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'the model call did not answer' });
    span.end();
  }
}

import { Attributes, context, Link, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { tracingEnabled } from './tracing';

/** The tracer of the service's own spans (`qhorus.*`; model calls as `gen_ai` spans). */
const TRACER_NAME = 'qhorus';

/**
 * Runs `fn` inside a span named `name` (ended when `fn` settles, an error recorded without its
 * message text, which could quote content). With tracing off this is `fn()` and nothing else.
 * Attributes must never carry message content, tokens or secrets (DESIGN §13).
 */
export function inSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>, options: { links?: Link[]; kind?: SpanKind } = {}): Promise<T> {
  if (!tracingEnabled()) return fn();
  return trace.getTracer(TRACER_NAME).startActiveSpan(name, { attributes, links: options.links, kind: options.kind ?? SpanKind.INTERNAL }, async (span) => {
    try {
      return await fn();
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorName(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Adds attributes to the current span (no-op without one). */
export function annotateSpan(attributes: Attributes): void {
  if (tracingEnabled()) trace.getActiveSpan()?.setAttributes(attributes);
}

/**
 * The current trace context as a W3C `traceparent` (plus `tracestate`), to carry in a job's data
 * so the job's span can link back to what enqueued it; undefined with tracing off or no span.
 */
export function currentTraceCarrier(): Record<string, string> | undefined {
  if (!tracingEnabled() || !trace.getActiveSpan()) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}

/** Span links to the contexts carried in job data (invalid or missing ones skipped). */
export function linksFrom(carriers: (Record<string, string> | undefined)[]): Link[] {
  if (!tracingEnabled()) return [];
  const links: Link[] = [];
  for (const carrier of carriers) {
    if (!carrier) continue;
    const spanContext = trace.getSpanContext(propagation.extract(context.active(), carrier));
    if (spanContext && trace.isSpanContextValid(spanContext)) links.push({ context: spanContext });
  }
  return links;
}

/** The active span's ids, for log lines (empty with tracing off). */
export function activeTraceIds(): { traceId?: string; spanId?: string } {
  if (!tracingEnabled()) return {};
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && trace.isSpanContextValid(spanContext) ? { traceId: spanContext.traceId, spanId: spanContext.spanId } : {};
}

/** An error's class name: its message may quote what a model or a database saw. */
function errorName(err: unknown): string {
  return err instanceof Error ? err.name : typeof err;
}

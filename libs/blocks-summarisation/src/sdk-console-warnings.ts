/**
 * Runs `call` (synchronous) with `console.warn` collected instead of printed, and returns what it
 * returned with what it warned. For SDKs that print notices with `console.warn` rather than their
 * configurable logger (the Anthropic SDK's model deprecation notice): the notice then reaches the
 * app's structured log, once, instead of stderr on every call. Safe because nothing else can run
 * while a synchronous call runs; `console.warn` is restored even if `call` throws.
 */
export function collectConsoleWarnings<R>(call: () => R): { result: R; warnings: string[] } {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => {
    warnings.push(args.map((a) => (typeof a === 'string' ? a : String(a))).join(' '));
  };
  try {
    return { result: call(), warnings };
  } finally {
    console.warn = original;
  }
}

/** One sample of a Prometheus text exposition: `name{label="v",…} value`. */
export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the text format (comments skipped; label values unescaped). */
export function parsePrometheusText(text: string): PromSample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .flatMap((line) => {
      const m = SAMPLE.exec(line);
      if (!m) return [];
      const labels: Record<string, string> = {};
      for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]] = l[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      return [{ name: m[1], labels, value: Number(m[3]) }];
    });
}

/** The sum of the samples with this name whose labels include `labels` (0 when there is none). */
export function sampleValue(samples: PromSample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found.reduce((sum, s) => sum + s.value, 0);
}

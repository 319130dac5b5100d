import { Writable } from 'node:stream';

/**
 * A log destination (`logDestination`) keeping what the app writes, for the test to read: each
 * line as written (`lines`) and parsed (`entries`, pino's JSON).
 */
export function logLines(): { lines: string[]; entries: Record<string, any>[]; stream: Writable } {
  const lines: string[] = [];
  const entries: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        lines.push(line);
        entries.push(JSON.parse(line));
      }
      done();
    },
  });
  return { lines, entries, stream };
}

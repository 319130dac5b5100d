import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '../src');
/** What the client may import: its own files, Node built-ins and its npm dependencies. */
const ALLOWED = [/^\.\.?\//, /^node:/, /^openapi-fetch$/, /^eventsource-parser$/, /^@anthropic-ai\/sdk(\/|$)/];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('@qhorus/client boundary', () => {
  it('imports nothing of the service or the other libs: HTTP only, so it ships on its own', () => {
    const offending = files(SRC).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)]
        .map((m) => m[1])
        .filter((spec) => !ALLOWED.some((ok) => ok.test(spec)) || (spec.startsWith('.') && relative(SRC, join(file, '..', spec)).startsWith('..')))
        .map((spec) => `${relative(SRC, file)}: ${spec}`),
    );
    expect(offending).toEqual([]);
  });
});

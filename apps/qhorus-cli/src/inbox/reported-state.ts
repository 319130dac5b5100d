import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { InboxItem } from '@qhorus/client';
import { CliProblem } from '../cli-context';

/** The state file's format version: a file of another version is refused, never misread. */
const STATE_VERSION = 1;

/**
 * One obligation's identity: its channel, thread, the request that opened (or reopened) it and
 * who owes it. A thread reopened by a new request, or handed to the caller, is a new obligation.
 */
export function obligationKey(o: Pick<InboxItem, 'channel' | 'correlationId' | 'seq' | 'owner'>): string {
  return JSON.stringify([o.channel, o.correlationId, o.seq, o.owner]);
}

/** What earlier runs reported (null: no file yet, a first run: everything open is new). */
export async function loadReported(path: string): Promise<Set<string> | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CliProblem(`cannot read the state file ${path}: ${(err as Error).message}`);
  }
  try {
    const state = JSON.parse(text) as { version?: unknown; reported?: unknown };
    if (state.version !== STATE_VERSION || !Array.isArray(state.reported) || !state.reported.every((k) => typeof k === 'string')) throw new Error(`not a version ${STATE_VERSION} state`);
    return new Set(state.reported as string[]);
  } catch (err) {
    throw new CliProblem(`the state file ${path} is not one qhorus inbox wrote (${(err as Error).message}): remove it to start over`);
  }
}

/** Writes the reported set whole (to a temporary file renamed over the old one: a reader never sees half a file). */
export async function saveReported(path: string, reported: Iterable<string>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ version: STATE_VERSION, reported: [...reported] })}\n`, { mode: 0o600 });
  await rename(temporary, path);
}

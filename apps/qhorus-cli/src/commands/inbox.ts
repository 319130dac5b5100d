import { Command, InvalidArgumentError } from 'commander';
import type { InboxItem } from '@qhorus/client';
import { CliExit, clientFor, printJson } from '../cli-context';
import { obligationLines } from '../format';
import { waitForNewObligations } from '../inbox/obligation-watch';

/** Exit codes of `qhorus inbox --wait` (a hook tells "something to do" from "nothing" from "broken"). */
export const EXIT_NEW_OBLIGATIONS = 0;
export const EXIT_NOTHING_NEW = 2;

const MS_PER_SECOND = 1000;
/** The longest `--wait` (a day): a hook or cron job that wants longer runs the command again. */
const MAX_WAIT_SECONDS = 86_400;

function toSeconds(value: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || seconds > MAX_WAIT_SECONDS) throw new InvalidArgumentError(`seconds from 0 to ${MAX_WAIT_SECONDS}`);
  return seconds;
}

const HELP_AFTER = `
With --wait or --state it reports only NEW obligations, once each:
  without --state, new means not in your inbox when the command started;
  with --state FILE, new means not reported by an earlier run with the same
  file (the first run reports everything open). The file holds what was
  reported and still is open; write access to it is all it needs.

Exit codes (with --wait or --state):
  0  new obligations were printed (as lines, or --json: the API's inbox items)
  2  nothing new when the time was up (--wait 0: nothing new now)
  1  an error: the service unreachable, the token rejected, bad usage, an
     unreadable state file (one line on stderr)

A coding agent's Stop/idle hook:  qhorus inbox --wait 30 --state ~/.qhorus/inbox-state.json
(see "Hooks for coding agents" in the README).`;

export function inboxCommand(): Command {
  return new Command('inbox')
    .option('-w, --wait <seconds>', 'block until a NEW obligation arrives, at most this long (0: only look)', toSeconds)
    .option('-s, --state <file>', 'remember what was reported in this file, so each run reports an obligation once (env QHORUS_INBOX_STATE)')
    .description('your open obligations across channels: threads addressed to you, open requests from others')
    .addHelpText('after', HELP_AFTER)
    .action(async (opts: { wait?: number; state?: string }, command: Command) => {
      const { client, json } = clientFor(command);
      const statePath = opts.state ?? process.env.QHORUS_INBOX_STATE;
      if (opts.wait === undefined && opts.state === undefined) {
        const items = await client.inbox();
        if (json) return printJson(items);
        for (const line of obligationLines(items)) process.stdout.write(`${line}\n`);
        return;
      }
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      process.once('SIGTERM', () => controller.abort());
      const found = await waitForNewObligations(client, { waitMs: (opts.wait ?? 0) * MS_PER_SECOND, statePath, signal: controller.signal });
      if (found.beyondPage > 0) process.stderr.write(`(${found.beyondPage} more obligations are past the page the service answers; answer some to see them)\n`);
      if (found.fresh.length === 0) throw new CliExit(EXIT_NOTHING_NEW);
      printObligations(found.fresh, json);
    });
}

function printObligations(items: InboxItem[], json: boolean): void {
  if (json) return printJson(items);
  for (const line of obligationLines(items)) process.stdout.write(`${line}\n`);
}

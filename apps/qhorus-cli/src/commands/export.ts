import { once } from 'node:events';
import { Command } from 'commander';
import { clientFor } from '../cli-context';

/**
 * `qhorus export CHANNEL > file`: the channel as NDJSON (DESIGN §10), written line by line as it
 * arrives (waiting for stdout to drain), so a channel of any length exports in flat memory.
 */
export function exportCommand(): Command {
  return new Command('export')
    .argument('<channel>')
    .description('the channel as NDJSON on stdout: a channel line, every kept message (tombstones for redactions), the current summary')
    .action(async (channel: string, _opts: unknown, command: Command) => {
      const { client } = clientFor(command);
      for await (const line of client.exportChannel(channel)) {
        if (!process.stdout.write(`${JSON.stringify(line)}\n`)) await once(process.stdout, 'drain');
      }
    });
}

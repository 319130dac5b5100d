import { Command } from 'commander';
import { clientFor, printJson } from '../cli-context';
import { toInt } from './channels';

export function searchCommand(): Command {
  return new Command('search')
    .argument('<query>', 'words (all must match), "a quoted phrase", or between alternatives, -word to exclude')
    .option('-c, --channel <channel>', 'only this channel')
    .option('-n, --limit <n>', 'at most this many results', toInt)
    .option('--cursor <cursor>', 'the next page: the cursor a previous search printed')
    .option('--events', 'include EVENT telemetry')
    .description('full-text search over every channel you may read, best match first')
    .action(async (query: string, opts: { channel?: string; limit?: number; cursor?: string; events?: boolean }, command: Command) => {
      const { client, json } = clientFor(command);
      const page = await client.search(query, { channel: opts.channel, limit: opts.limit, cursor: opts.cursor, includeEvents: opts.events });
      if (json) return printJson(page);
      for (const r of page.results) process.stdout.write(`${r.channel}#${r.seq}\t${r.type}\t${r.sender}\t${r.snippet}\n`);
      if (page.results.length === 0) process.stdout.write('no match\n');
      if (page.nextCursor) process.stdout.write(`more: --cursor ${page.nextCursor}\n`);
    });
}

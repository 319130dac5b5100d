import { Command, InvalidArgumentError } from 'commander';
import { clientFor, printJson } from '../cli-context';
import { channelLine } from '../format';

export const toInt = (value: string): number => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
};

export function channelsCommand(): Command {
  const channels = new Command('channels').description('create, list and show channels');
  channels
    .command('ls')
    .description('list the channels you can read')
    .action(async (_opts, command: Command) => {
      const { client, json } = clientFor(command);
      const list = await client.listChannels();
      if (json) return printJson(list);
      for (const c of list) process.stdout.write(`${channelLine(c)}\n`);
    });
  channels
    .command('create')
    .argument('<name>', 'a slug: a-z, 0-9, . _ -')
    .option('-d, --description <text>', 'what the channel is for (grounds the LLM summariser)')
    .option('--threshold <n>', 'unsummarised messages that trigger a summary', toInt)
    .option('--summariser <name>', 'heuristic (default), verbatim, tiered, llm, …')
    .option('--members <names>', 'comma list: makes the channel private to them')
    .description('create a channel')
    .action(async (name: string, opts: { description?: string; threshold?: number; summariser?: string; members?: string }, command: Command) => {
      const { client, json } = clientFor(command);
      const created = await client.createChannel({
        name,
        description: opts.description,
        summaryThreshold: opts.threshold,
        summariser: opts.summariser,
        members: opts.members?.split(',').map((m) => m.trim()).filter(Boolean),
      });
      if (json) return printJson(created);
      process.stdout.write(`created ${channelLine(created)}\n`);
      for (const w of created.warnings) process.stderr.write(`warning: ${w}\n`);
    });
  channels
    .command('show')
    .argument('<name>')
    .description('show one channel')
    .action(async (name: string, _opts, command: Command) => {
      const { client, json } = clientFor(command);
      const channel = await client.getChannel(name);
      if (json) return printJson(channel);
      process.stdout.write(`${channelLine(channel)}\ncreated by ${channel.createdBy} at ${new Date(channel.createdAt).toISOString()}\n`);
    });
  return channels;
}

import { Command } from 'commander';
import { clientFor, printJson } from '../cli-context';
import { toInt } from './channels';

const CONTEXT_FORMATS = ['anthropic', 'openai', 'text'];

export function summaryCommand(): Command {
  return new Command('summary')
    .argument('<channel>')
    .option('--versions', 'the earlier versions instead, newest first')
    .option('-n, --limit <n>', 'with --versions: at most this many', toInt)
    .description("a channel's summary: the state of the conversation in a few paragraphs")
    .action(async (channel: string, opts: { versions?: boolean; limit?: number }, command: Command) => {
      const { client, json } = clientFor(command);
      if (opts.versions) {
        const versions = await client.summaryHistory(channel, { limit: opts.limit });
        if (json) return printJson(versions);
        for (const v of versions) process.stdout.write(`v${v.version} (#${v.coversFromSeq}–#${v.coversThroughSeq}, ${v.updatedBy})\n${v.text}\n\n`);
        return;
      }
      const s = await client.getSummary(channel);
      if (json) return printJson(s);
      const head = s.version === 0 ? `no summary yet (${s.pending} messages pending)` : `v${s.version} through #${s.coversThroughSeq} of ${s.lastSeq} (${s.pending} pending, ${s.summariser})`;
      process.stdout.write(`${head}\n${s.text ? `${s.text}\n` : ''}${s.lastError ? `last error: ${s.lastError}\n` : ''}`);
    });
}

export function contextCommand(): Command {
  return new Command('context')
    .argument('<channel>')
    .option('-f, --format <format>', CONTEXT_FORMATS.join(', ') + ' (default: text here; the API defaults to anthropic)', 'text')
    .option('--viewer <agent>', "whose point of view (default: the caller's)")
    .option('--keep-last <n>', 'newest messages always verbatim', toInt)
    .option('--max-tokens <n>', 'token budget of the whole projection', toInt)
    .description('the channel as a ready-to-send prompt: summary first, then the newest messages, within a token budget')
    .action(async (channel: string, opts: { format: string; viewer?: string; keepLast?: number; maxTokens?: number }, command: Command) => {
      const { client, json } = clientFor(command);
      const context = await client.context(channel, { format: opts.format as 'text', viewer: opts.viewer, keepLast: opts.keepLast, maxTokens: opts.maxTokens });
      if (json) return printJson(context);
      if (context.text !== undefined) return void process.stdout.write(`${context.text}\n`);
      printJson(context.messages);
    });
}

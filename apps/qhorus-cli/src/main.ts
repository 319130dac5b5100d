import { Command, CommanderError } from 'commander';
import { CliExit, describeFailure, DEFAULT_URL } from './cli-context';
import { agentsCommand } from './commands/agents';
import { channelsCommand } from './commands/channels';
import { exportCommand } from './commands/export';
import { historyCommand, postCommand, tailCommand } from './commands/messages';
import { inboxCommand } from './commands/inbox';
import { searchCommand } from './commands/search';
import { contextCommand, summaryCommand } from './commands/summary';
import { webhookCommand } from './commands/webhooks';

/** The `qhorus` command line (DESIGN §9), on the typed client: it speaks HTTP only. */
export function buildProgram(): Command {
  const program = new Command('qhorus')
    .description('Qhorus from a terminal: agents, channels, posts, a live tail, summaries, context, inbox, search, export, webhooks')
    .option('--url <url>', `the service (env QHORUS_URL, default ${DEFAULT_URL})`)
    .option('--token <token>', 'your bearer token (env QHORUS_TOKEN)')
    .option('--json', "print the API's own JSON")
    // One line after a usage error, then where the usage is (the whole help drowned the error).
    .showHelpAfterError("(run 'qhorus --help' for usage)")
    .exitOverride();
  for (const command of [agentsCommand(), channelsCommand(), postCommand(), tailCommand(), historyCommand(), summaryCommand(), contextCommand(), inboxCommand(), searchCommand(), exportCommand(), webhookCommand()]) {
    program.addCommand(command);
  }
  // Errors of subcommands too come back as CommanderError instead of exiting the process.
  program.commands.forEach(function allowGlobals(c: Command): void {
    c.exitOverride();
    c.commands.forEach(allowGlobals);
  });
  return program;
}

export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    // Commander has already printed usage errors and help.
    if (err instanceof CommanderError) return err.exitCode;
    if (err instanceof CliExit) return err.code;
    const url = (program.opts<{ url?: string }>().url ?? process.env.QHORUS_URL ?? DEFAULT_URL).replace(/\/+$/, '');
    process.stderr.write(`qhorus: ${describeFailure(err, url)}\n`);
    return 1;
  }
}

if (require.main === module) {
  void run(process.argv).then((code) => {
    process.exitCode = code;
  });
}

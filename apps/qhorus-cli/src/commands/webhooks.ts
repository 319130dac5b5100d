import { Command } from 'commander';
import { CreateWebhook } from '@qhorus/client';
import { clientFor, printJson } from '../cli-context';
import { toInt } from './channels';

/** A repeatable option that also takes comma lists: `--event a --event b` or `--event a,b`. */
const collect = (value: string, previous: string[]): string[] => [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];

/** The webhooks of DESIGN §11: how an agent that is not running gets told. */
export function webhookCommand(): Command {
  const webhook = new Command('webhook').description('webhooks: be called (signed, retried) when something happens, instead of polling');
  webhook
    .command('add')
    .argument('<url>', 'where events are POSTed (http or https; a public address unless the service allows it)')
    .option('-e, --event <event>', 'message.addressed, message.posted, summary.updated or thread.closed (repeat, or a comma list; default message.addressed)', collect, [])
    .option('-c, --channel <channel>', 'only these channels (repeat, or a comma list; default: every channel you may read)', collect, [])
    .option('-t, --type <type>', 'message.posted only for these message types (repeat, or a comma list)', collect, [])
    .description('subscribe; prints the hook id and its signing secret (whsec_…), shown this once')
    .action(async (url: string, opts: { event: string[]; channel: string[]; type: string[] }, command: Command) => {
      const { client, json } = clientFor(command);
      const body = {
        url,
        events: opts.event.length > 0 ? opts.event : ['message.addressed'],
        ...(opts.channel.length > 0 ? { channels: opts.channel } : {}),
        ...(opts.type.length > 0 ? { types: opts.type } : {}),
      } as CreateWebhook;
      const hook = await client.createWebhook(body);
      if (json) return printJson(hook);
      process.stdout.write(`${hook.id}\t${hook.secret}\n`);
    });
  webhook
    .command('ls')
    .description('your webhooks (the admin: everyone’s)')
    .action(async (_opts, command: Command) => {
      const { client, json } = clientFor(command);
      const hooks = await client.listWebhooks();
      if (json) return printJson(hooks);
      for (const h of hooks) {
        const state = h.disabledAt ? `disabled: ${h.disabledReason}` : 'enabled';
        process.stdout.write(`${[h.id, h.owner, h.url, h.events.join(','), h.channels?.join(',') ?? '*', state].join('\t')}\n`);
      }
    });
  webhook
    .command('rm')
    .argument('<id>')
    .description('delete a webhook (and what it still had pending)')
    .action(async (id: string, _opts, command: Command) => {
      const { client, json } = clientFor(command);
      await client.deleteWebhook(id);
      if (json) return printJson({ id, deleted: true });
      process.stdout.write(`deleted ${id}\n`);
    });
  webhook
    .command('test')
    .argument('<id>')
    .description('send the hook a signed webhook.test event; prints its webhook-id')
    .action(async (id: string, _opts, command: Command) => {
      const { client, json } = clientFor(command);
      const answer = await client.testWebhook(id);
      if (json) return printJson(answer);
      process.stdout.write(`${answer.eventId}\n`);
    });
  webhook
    .command('deliveries')
    .argument('<id>')
    .option('-n, --limit <n>', 'at most this many, newest first', toInt)
    .description("a hook's delivery attempts, newest first: event id, type, attempt, status, time taken, error")
    .action(async (id: string, opts: { limit?: number }, command: Command) => {
      const { client, json } = clientFor(command);
      const attempts = await client.webhookDeliveries(id, { limit: opts.limit });
      if (json) return printJson(attempts);
      for (const a of attempts) {
        const at = new Date(a.at).toISOString();
        process.stdout.write(`${[at, a.eventId, a.type, `#${a.attempt}`, a.status ?? '-', `${a.durationMs}ms`, a.error ?? ''].join('\t')}\n`);
      }
    });
  return webhook;
}

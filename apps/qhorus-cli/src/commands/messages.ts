import { Command } from 'commander';
import type { PostMessage } from '@qhorus/client';
import { clientFor, printJson } from '../cli-context';
import { messageLine, summaryLine } from '../format';
import { toInt } from './channels';

const MESSAGE_TYPES = ['QUERY', 'COMMAND', 'RESPONSE', 'STATUS', 'DECLINE', 'FAILURE', 'HANDOFF', 'DONE', 'EVENT'];

export function postCommand(): Command {
  return new Command('post')
    .argument('<channel>')
    .argument('<text>', 'the content')
    .option('-t, --type <type>', `${MESSAGE_TYPES.join(', ')} (default STATUS)`, (v: string) => v.toUpperCase())
    .option('--topic <topic>')
    .option('-c, --correlation-id <id>', 'the thread (generated for QUERY and COMMAND when absent)')
    .option('-r, --reply-to <seq>', 'the seq this answers', toInt)
    .option('--target <agent>', 'who it is addressed to (required for HANDOFF)')
    .option('--idempotency-key <key>', 'makes a retried post safe (one is generated otherwise)')
    .description('post a message as the caller')
    .action(async (channel: string, text: string, opts: { type?: string; topic?: string; correlationId?: string; replyTo?: number; target?: string; idempotencyKey?: string }, command: Command) => {
      const { client, json } = clientFor(command);
      const message = await client.postMessage(
        channel,
        { type: opts.type as PostMessage['type'], content: text, topic: opts.topic, correlationId: opts.correlationId, inReplyTo: opts.replyTo, target: opts.target },
        { idempotencyKey: opts.idempotencyKey },
      );
      if (json) return printJson(message);
      process.stdout.write(`${messageLine(message)}\n`);
    });
}

export function historyCommand(): Command {
  return new Command('history')
    .argument('<channel>')
    .option('--after-seq <seq>', 'only messages after this seq', toInt)
    .option('-n, --limit <n>', 'at most this many', toInt)
    .option('--events', 'include EVENT telemetry')
    .description("a channel's messages in seq order")
    .action(async (channel: string, opts: { afterSeq?: number; limit?: number; events?: boolean }, command: Command) => {
      const { client, json } = clientFor(command);
      const messages = await client.listMessages(channel, { afterSeq: opts.afterSeq, limit: opts.limit, includeEvents: opts.events });
      if (json) return printJson(messages);
      for (const m of messages) process.stdout.write(`${messageLine(m)}\n`);
    });
}

export function tailCommand(): Command {
  return new Command('tail')
    .argument('<channel>')
    .option('--after-seq <seq>', 'replay from after this seq first (default: the newest 10)', toInt)
    .option('--events', 'include EVENT telemetry')
    .description('follow a channel live (reconnects, resuming where it left off); Ctrl-C ends it')
    .action(async (channel: string, opts: { afterSeq?: number; events?: boolean }, command: Command) => {
      const { client, json } = clientFor(command);
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      process.once('SIGTERM', () => controller.abort());
      // Replay what is already there (the newest TAIL_REPLAY shown, EVENTs counted only when shown), then go live from its last seq.
      let last = opts.afterSeq ?? 0;
      const replay =
        opts.afterSeq === undefined
          ? await client.listMessages(channel, { tail: TAIL_REPLAY, includeEvents: opts.events })
          : await client.listMessages(channel, { afterSeq: opts.afterSeq, includeEvents: opts.events });
      for (const m of replay) {
        last = m.seq;
        process.stdout.write(json ? `${JSON.stringify({ event: 'message.posted', id: String(m.seq), data: m })}\n` : `${messageLine(m)}\n`);
      }
      const onReconnect = (why: string) => process.stderr.write(`(reconnecting: ${why})\n`);
      for await (const e of client.events(channel, { afterSeq: last, includeEvents: opts.events, signal: controller.signal, onReconnect })) {
        if (json) process.stdout.write(`${JSON.stringify(e)}\n`);
        else if (e.event === 'message.posted') process.stdout.write(`${messageLine(e.data)}\n`);
        else process.stdout.write(`${summaryLine(e.data.version, e.data.coversThroughSeq, e.data.updatedBy)}\n`);
      }
    });
}

/** How many recent messages `tail` shows before going live. */
const TAIL_REPLAY = 10;

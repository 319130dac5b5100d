import { BadRequestException, Injectable } from '@nestjs/common';
import { THREAD_STATUSES } from '@qhorus/api';
import { InboxQuery } from '../../threads/dto/inbox.query';
import { ListThreadsQuery } from '../../threads/dto/list-threads.query';
import { ThreadPageQuery } from '../../threads/dto/thread-page.query';
import { ThreadsService } from '../../threads/threads.service';
import { McpTool, McpToolGroup } from '../mcp-tool';
import { CHANNEL_ARG, channelArg, optional, required, toDto, toolInput } from '../tool-args';

const LIMIT_ARG = optional({ type: 'integer', description: 'At most this many entries (default and maximum are configured).', schema: { minimum: 1 } });
const AFTER_SEQ_ARG = (of: string) => optional({ type: 'integer', description: `Only ${of} with seq greater than this (default 0).`, schema: { minimum: 0 } });

/** The thread index and the inbox for agents: the same services and DTOs as REST. */
@Injectable()
export class ThreadTools implements McpToolGroup {
  constructor(private readonly threads: ThreadsService) {}

  tools(): McpTool[] {
    return [
      {
        name: 'check_inbox',
        description:
          'What is waiting for you, across every channel you may read, oldest first: open threads you owe (a QUERY or ' +
          'COMMAND targeted at you, or handed off to you) and untargeted open requests from others. Each entry has the ' +
          'channel, seq, correlation_id, type, opener, the request text and its age in seconds. Answer with send_message ' +
          '(RESPONSE, DONE, DECLINE or FAILURE with the same correlation_id, or HANDOFF to pass it on); it then leaves ' +
          'your inbox. total is how many are waiting in all: more than items holds when the page was cut at limit.',
        input: toolInput({ limit: LIMIT_ARG }),
        annotations: { readOnlyHint: true },
        run: async (args, by) => {
          const query = await toDto(InboxQuery, args, { limit: 'limit' });
          return this.threads.inbox(query, by);
        },
      },
      {
        name: 'list_threads',
        description:
          'The threads of a channel (one per correlation_id opened by a QUERY, COMMAND or HANDOFF), oldest first, from ' +
          'the durable thread index: type, status (open, answered, done, declined, failed), opener, owner (who owes the ' +
          'next step; null = anyone), opened and closed seq. status filters; page with after_seq (an opened seq).',
        input: toolInput({
          channel: CHANNEL_ARG,
          status: optional({ type: 'string', description: 'Only threads in this status.', schema: { enum: THREAD_STATUSES } }),
          after_seq: AFTER_SEQ_ARG('threads opened'),
          limit: LIMIT_ARG,
        }),
        annotations: { readOnlyHint: true },
        run: async (args, by) => {
          const channel = channelArg(args);
          const query = await toDto(ListThreadsQuery, args, { status: 'status', after_seq: 'afterSeq', limit: 'limit' }, ['channel']);
          return { threads: await this.threads.list(channel, query, by) };
        },
      },
      {
        name: 'get_thread',
        description:
          'One thread: its state in the thread index, its messages in seq order (page with after_seq), and once it is ' +
          'closed, its summary (null while open or not summarised yet). Use it to catch up on one request without ' +
          'reading the whole channel.',
        input: toolInput({
          channel: CHANNEL_ARG,
          correlation_id: required({ type: 'string', description: 'The thread\'s correlation id.' }),
          after_seq: AFTER_SEQ_ARG('messages'),
          limit: LIMIT_ARG,
          include_events: optional({ type: 'boolean', description: 'Include EVENT telemetry posted in the thread (default false).' }),
        }),
        annotations: { readOnlyHint: true },
        run: async (args, by) => {
          const channel = channelArg(args);
          const correlationId = correlationIdArg(args);
          const query = await toDto(ThreadPageQuery, args, { after_seq: 'afterSeq', limit: 'limit', include_events: 'includeEvents' }, ['channel', 'correlation_id']);
          return this.threads.get(channel, correlationId, query, by);
        },
      },
    ];
  }
}

function correlationIdArg(args: Record<string, unknown>): string {
  const id = args.correlation_id;
  if (typeof id === 'string' && id.length > 0) return id;
  const problem = 'correlation_id must be a non-empty string';
  throw new BadRequestException({ message: `Invalid request: ${problem}`, details: [{ field: 'correlation_id', problems: [problem] }] });
}

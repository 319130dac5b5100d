import { BadRequestException, Injectable } from '@nestjs/common';
import { THREAD_STATUSES } from '@qhorus/api';
import { InboxQuery } from '../../threads/dto/inbox.query';
import { ListThreadsQuery } from '../../threads/dto/list-threads.query';
import { ThreadPageQuery } from '../../threads/dto/thread-page.query';
import { ThreadsService } from '../../threads/threads.service';
import { McpTool, McpToolGroup } from '../mcp-tool';
import { CHANNEL_ARG, channelArg, optional, required, toDto, toolInput } from '../tool-args';

const LIMIT_ARG = optional({ type: 'integer' });
const AFTER_SEQ_ARG = optional({ type: 'integer' });

/** The thread index and the inbox for agents: the same services and DTOs as REST. */
@Injectable()
export class ThreadTools implements McpToolGroup {
  constructor(private readonly threads: ThreadsService) {}

  tools(): McpTool[] {
    return [
      {
        name: 'check_inbox',
        description:
          'Open requests waiting for you, oldest first. Answer with send_message and their correlation_id.',
        input: toolInput({ limit: LIMIT_ARG }),
        run: async (args, by) => {
          const query = await toDto(InboxQuery, args, { limit: 'limit' });
          return this.threads.inbox(query, by);
        },
      },
      {
        name: 'list_threads',
        description: "A channel's threads with status and owner.",
        input: toolInput({
          channel: CHANNEL_ARG,
          status: optional({ type: 'string', schema: { enum: THREAD_STATUSES } }),
          after_seq: AFTER_SEQ_ARG,
          limit: LIMIT_ARG,
        }),
        run: async (args, by) => {
          const channel = channelArg(args);
          const query = await toDto(ListThreadsQuery, args, { status: 'status', after_seq: 'afterSeq', limit: 'limit' }, ['channel']);
          return { threads: await this.threads.list(channel, query, by) };
        },
      },
      {
        name: 'get_thread',
        description: 'One thread: state, messages, summary once closed.',
        input: toolInput({
          channel: CHANNEL_ARG,
          correlation_id: required({ type: 'string' }),
          after_seq: AFTER_SEQ_ARG,
          limit: LIMIT_ARG,
          include_events: optional({ type: 'boolean' }),
        }),
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

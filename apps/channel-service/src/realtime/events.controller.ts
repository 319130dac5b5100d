import { BadRequestException, Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiHeader, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { ChannelsService } from '../channels/channels.service';
import { fieldProblem } from '../common/validation.pipe';
import { ChannelSubscriptions } from './channel-subscriptions';
import { MessageResponse } from '../message-store/dto/message.response';
import { EventsQuery } from './dto/events.query';
import { SummaryUpdatedEventData } from './dto/stream-event.response';
import { parseLastEventId, StreamResume } from './event-ids';
import { SseStream } from './sse-stream';

const LAST_EVENT_ID_HEADER = 'last-event-id';

@ApiTags('events')
@ApiExtraModels(MessageResponse, SummaryUpdatedEventData)
@ApiBearerAuth()
@Controller('channels/:name/events')
export class EventsController {
  constructor(
    private readonly channels: ChannelsService,
    private readonly subscriptions: ChannelSubscriptions,
  ) {}

  /**
   * Server-Sent Events of one channel: `message.posted` (id: its seq; data: the message) and
   * `summary.updated` (id: `<seq>s<version>`; data: {channel, version, coversThroughSeq,
   * updatedBy}), plus heartbeat comments. With `Last-Event-ID` (or `?afterSeq=`) it first
   * replays every message after that seq from Postgres, then the current summary if newer than
   * the version named, then goes live: no gap, no duplicate, on any instance.
   */
  @Get()
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'The event stream (text/event-stream)', content: { 'text/event-stream': { schema: { type: 'string', description: 'SSE frames: `id:` the event id (a seq, or `<seq>s<version>`), `event:` message.posted or summary.updated, `data:` its JSON' } } } })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this event id: a seq ("42") or a summary id ("40s3")' })
  async stream(
    @Param('name') name: string,
    @Query() query: EventsQuery,
    @CurrentPrincipal() by: Principal,
    @Headers(LAST_EVENT_ID_HEADER) lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const requested = resumeFrom(lastEventId, query.afterSeq); // 400 before anything is read
    const channel = await this.channels.get(name, by); // 404 (as JSON) before any byte of the stream
    // HEAD (Fastify serves it from this GET route): the stream's headers, no stream that never ends.
    if (reply.request.method === 'HEAD') {
      await reply.header('content-type', 'text/event-stream').send();
      return;
    }
    if (requested && requested.afterSeq > channel.lastSeq) throw resumeAheadOfChannel(requested.afterSeq, channel.lastSeq, lastEventId !== undefined && lastEventId.trim() !== '');
    const resume: StreamResume = requested ?? { afterSeq: channel.lastSeq, summaryAfterVersion: null };
    const release = this.subscriptions.reserve(by); // 429 (as JSON) before any byte of the stream, like the 404
    reply.hijack();
    const stream = new SseStream(reply.raw);
    // A client that left while the channel was read has already fired 'close': end at once, or its
    // heartbeat and hub subscription would outlive it.
    const onClientGone = (end: () => void) => (reply.raw.destroyed ? end() : reply.raw.on('close', end));
    try {
      await this.subscriptions.attach(channel, by, stream, onClientGone, { includeEvents: query.includeEvents ?? false, resume }, release);
    } catch (err) {
      release();
      throw err;
    }
  }
}

/** The header wins over ?afterSeq= (an EventSource reconnecting keeps its first URL). Null: start live, from now. */
function resumeFrom(lastEventId: string | undefined, afterSeq: number | undefined): StreamResume | null {
  if (lastEventId !== undefined && lastEventId.trim() !== '') {
    const resume = parseLastEventId(lastEventId);
    if (resume) return resume;
    const problem = 'must be an event id of this stream: a seq ("42") or a summary id ("40s3")';
    throw fieldProblem('Last-Event-ID', problem);
  }
  return afterSeq === undefined ? null : { afterSeq, summaryAfterVersion: 0 };
}

/**
 * A resume point past the channel's last seq names no event this stream sent (an id is published
 * only after its message is committed): resuming there would skip every message up to it.
 */
function resumeAheadOfChannel(afterSeq: number, lastSeq: number, fromHeader: boolean): BadRequestException {
  const field = fromHeader ? 'Last-Event-ID' : 'afterSeq';
  return fieldProblem(field, `must not be past the channel's last seq (${lastSeq}): ${afterSeq} names no event of this stream`);
}

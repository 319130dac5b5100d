import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { ChannelsService } from '../channels/channels.service';
import { ChannelSubscriptions } from './channel-subscriptions';
import { MessageResponse } from '../messages/dto/message.response';
import { EventsQuery } from './dto/events.query';
import { SummaryUpdatedEventData } from './dto/stream-event.response';
import { SseStream } from './sse-stream';

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
   * Server-Sent Events of one channel: `message.posted` (data: the message) and
   * `summary.updated` (data: {channel, version, coversThroughSeq, updatedBy}), plus heartbeat
   * comments. Live only: after a reconnect, catch up with GET messages?afterSeq=.
   */
  @Get()
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'The event stream (text/event-stream)', content: { 'text/event-stream': { schema: { type: 'string', description: 'SSE frames: `event:` message.posted or summary.updated, `data:` its JSON' } } } })
  async stream(@Param('name') name: string, @Query() query: EventsQuery, @CurrentPrincipal() by: Principal, @Res() reply: FastifyReply): Promise<void> {
    const channel = await this.channels.get(name, by); // 404 (as JSON) before any byte of the stream
    // HEAD (Fastify serves it from this GET route): the stream's headers, no stream that never ends.
    if (reply.request.method === 'HEAD') {
      await reply.header('content-type', 'text/event-stream').send();
      return;
    }
    reply.hijack();
    const stream = new SseStream(reply.raw);
    // A client that left while the channel was read has already fired 'close': end at once, or its
    // heartbeat and hub subscription would outlive it.
    const onClientGone = (end: () => void) => (reply.raw.destroyed ? end() : reply.raw.on('close', end));
    await this.subscriptions.attach(channel, by, stream, onClientGone, { includeEvents: query.includeEvents ?? false });
  }
}

import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { NoQuery, NoQueryPipe } from '../common/no-query.pipe';
import { ExportService } from './export.service';

export const NDJSON = 'application/x-ndjson';

@ApiTags('channels')
@ApiBearerAuth()
@Controller('channels')
export class ExportController {
  constructor(private readonly exports: ExportService) {}

  /** The channel, every kept message (tombstones included) and the current summary, as streamed NDJSON. */
  @Get(':name/export')
  @ApiProduces(NDJSON)
  @ApiOkResponse({
    description: 'NDJSON, streamed: a `kind: "channel"` line, one `kind: "message"` line per kept message in seq order (a redacted one with `content: null` and `redacted: {at, by, reason}`), then a `kind: "summary"` line',
    content: { [NDJSON]: { schema: { type: 'string', description: 'One JSON object per line, each with `kind` and the fields the REST API gives that channel, message or summary' } } },
  })
  async export(@Param('name') name: string, @CurrentPrincipal() by: Principal, @Query(NoQueryPipe) _query: NoQuery, @Res() reply: FastifyReply): Promise<void> {
    const channel = await this.exports.open(name, by); // 404 before anything is sent
    reply.header('content-type', `${NDJSON}; charset=utf-8`).header('content-disposition', `attachment; filename="${channel.name}.ndjson"`);
    if (reply.request.method === 'HEAD') {
      await reply.send();
      return;
    }
    await reply.send(Readable.from(this.exports.lines(channel, by), { objectMode: false }));
  }
}

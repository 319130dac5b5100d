import { Injectable } from '@nestjs/common';
import { Principal } from '../auth/principal';
import { Channel } from '../channels/channel.entity';
import { channelView } from '../channels/channel.view';
import { ChannelsService } from '../channels/channels.service';
import { ExportConfig } from '../config/slices/export-config';
import { messageView, toMessage } from '../message-store/message.entity';
import { SummaryService } from '../summary/summary.service';
import { ExportRepository } from './export.repository';

/** What each NDJSON line of an export is. */
export const EXPORT_LINE_KINDS = { channel: 'channel', message: 'message', summary: 'summary' } as const;

/**
 * `GET /channels/{name}/export` (DESIGN §10): one NDJSON line for the channel, one per message
 * (tombstones as the API shows them: `content: null`, `redacted: {at, by, reason}`), then one for
 * the current summary. Messages are read in keyset pages of QHORUS_EXPORT_PAGE_SIZE as the client
 * takes the lines (a generator: the next page is read only when the last is sent), so memory is
 * one page whatever the channel's length. The export covers the messages up to the lastSeq read
 * at its start; what retention removes meanwhile is not in it, and the summary line, read last,
 * is the newest one.
 */
@Injectable()
export class ExportService {
  constructor(
    private readonly channels: ChannelsService,
    private readonly summaries: SummaryService,
    private readonly repository: ExportRepository,
    private readonly config: ExportConfig,
  ) {}

  /** The channel (404 when the caller may not read it), checked before anything is sent. */
  open(name: string, by: Principal): Promise<Channel> {
    return this.channels.get(name, by);
  }

  /** The export's lines, each page of messages as one chunk. */
  async *lines(channel: Channel, by: Principal): AsyncGenerator<string> {
    yield line(EXPORT_LINE_KINDS.channel, channelView(channel));
    const pageSize = this.config.pageSize;
    for (let after = channel.firstSeq - 1; ; ) {
      const rows = await this.repository.page(channel.id, after, channel.lastSeq, pageSize);
      if (rows.length === 0) break;
      yield rows.map((r) => line(EXPORT_LINE_KINDS.message, messageView(toMessage(r, channel.name)))).join('');
      after = Number(rows[rows.length - 1].seq);
      if (rows.length < pageSize) break;
    }
    yield line(EXPORT_LINE_KINDS.summary, await this.summaries.get(channel.name, by));
  }
}

function line(kind: string, value: object): string {
  return `${JSON.stringify({ kind, ...value })}\n`;
}

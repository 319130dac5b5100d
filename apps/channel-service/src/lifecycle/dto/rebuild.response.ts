import { ApiProperty } from '@nestjs/swagger';

/** The answer of `POST …/summary/rebuild`: every version dropped, a job summarises the kept messages from empty. */
export class SummaryRebuildResponse {
  channel: string;
  @ApiProperty({ type: 'integer', description: 'The slot version now (empty, watermark 0) until the job commits' })
  version: number;
  @ApiProperty({ description: 'Whether a job was enqueued now (if not, the sweep starts one)' })
  queued: boolean;
  @ApiProperty({ description: "What the rebuild dropped: the summary's memory of messages already removed by retention goes with it" })
  note: string;
}

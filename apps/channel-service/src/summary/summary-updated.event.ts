/** A new summary version was committed (by the job or a manual override). */
export class SummaryUpdatedEvent {
  static readonly NAME = 'summary.updated';
  constructor(
    readonly channelId: string,
    readonly channelName: string,
    readonly version: number,
    readonly coversThroughSeq: number,
    readonly updatedBy: string,
  ) {}
}

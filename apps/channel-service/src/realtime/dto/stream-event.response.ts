/**
 * The `data` of a `summary.updated` event (its id is `<coversThroughSeq>s<version>`). The data
 * of `message.posted` is the message itself (`MessageResponse`; its id is the seq).
 */
export class SummaryUpdatedEventData {
  channel: string;
  version: number;
  coversThroughSeq: number;
  updatedBy: string;
}

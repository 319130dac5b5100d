import { Message } from '@qhorus/api';

/** What the summary trigger needs from the insert statement, so it reads nothing. */
export interface PostedBacklog {
  /** lastSeq − coversThroughSeq right after the insert. */
  readonly backlog: number;
  readonly summaryThreshold: number;
  /** Estimated tokens after the watermark right after the insert, and the message's own share. */
  readonly backlogTokens: number;
  readonly messageTokens: number;
  readonly summaryThresholdTokens: number | null;
}

/** Emitted after a message is committed. Carries what the summary trigger needs, so it reads nothing. */
export class MessagePostedEvent {
  static readonly NAME = 'message.posted';
  constructor(
    readonly channelId: string,
    readonly message: Message,
    readonly backlog: PostedBacklog,
  ) {}
}

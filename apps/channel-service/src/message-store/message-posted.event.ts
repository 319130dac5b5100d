import { Message } from '@qhorus/api';

/** The token side of the backlog right after the insert (for the token trigger). */
export interface PostedTokenBacklog {
  /** Estimated tokens after the watermark, this message included. */
  readonly backlog: number;
  /** This message's own estimate. */
  readonly added: number;
  /** The channel's `summaryThresholdTokens` (null: no token trigger). */
  readonly threshold: number | null;
}

/**
 * Emitted after a message is committed, once per message (a batch too, in seq order). Carries
 * what the summary trigger needs, so it reads nothing; `endsBatch` is false for every message of
 * a batch but its last, so the trigger sees a batch once.
 */
export class MessagePostedEvent {
  static readonly NAME = 'message.posted';
  constructor(
    readonly channelId: string,
    readonly message: Message,
    /** lastSeq − coversThroughSeq right after the insert. */
    readonly backlog: number,
    readonly summaryThreshold: number,
    readonly tokens?: PostedTokenBacklog,
    readonly endsBatch: boolean = true,
    /** The message closed its thread: the thread's summary is due (the sweep recovers it if this event is lost). */
    readonly closedThread: boolean = false,
  ) {}
}

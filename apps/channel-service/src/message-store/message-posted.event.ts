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

/** What a posted message's event carries, by name. */
export interface MessagePosted {
  readonly channelId: string;
  readonly message: Message;
  /** lastSeq − coversThroughSeq right after the insert. */
  readonly backlog: number;
  readonly summaryThreshold: number;
  readonly tokens?: PostedTokenBacklog;
  /** False for every message of a batch but its last (default true: a single post). */
  readonly endsBatch?: boolean;
  /** The message closed its thread: the thread's summary is due (the sweep recovers it if this event is lost). */
  readonly closedThread?: boolean;
  /** A webhook outbox row was written for it (some enabled hook may hear of it): the deliverers are woken. */
  readonly announced?: boolean;
}

/**
 * Emitted after a message is committed, once per message (a batch too, in seq order). Carries
 * what the summary trigger needs, so it reads nothing; `endsBatch` is false for every message of
 * a batch but its last, so the trigger sees a batch once.
 */
export class MessagePostedEvent implements MessagePosted {
  static readonly NAME = 'message.posted';
  readonly channelId: string;
  readonly message: Message;
  readonly backlog: number;
  readonly summaryThreshold: number;
  readonly tokens?: PostedTokenBacklog;
  readonly endsBatch: boolean;
  readonly closedThread: boolean;
  readonly announced: boolean;

  constructor(posted: MessagePosted) {
    this.channelId = posted.channelId;
    this.message = posted.message;
    this.backlog = posted.backlog;
    this.summaryThreshold = posted.summaryThreshold;
    this.tokens = posted.tokens;
    this.endsBatch = posted.endsBatch ?? true;
    this.closedThread = posted.closedThread ?? false;
    this.announced = posted.announced ?? false;
  }
}

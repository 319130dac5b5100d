import { Message } from '@qhorus/api';

/** Emitted after a message is committed. Carries what the summary trigger needs, so it reads nothing. */
export class MessagePostedEvent {
  static readonly NAME = 'message.posted';
  constructor(
    readonly channelId: string,
    readonly message: Message,
    readonly backlog: number,
    readonly summaryThreshold: number,
    /** The message closed its thread: the thread's summary is due (the sweep recovers it if this event is lost). */
    readonly closedThread: boolean = false,
  ) {}
}

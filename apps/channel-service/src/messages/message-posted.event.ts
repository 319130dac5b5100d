import { Message } from '@qhorus/api';

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
    readonly backlog: number,
    readonly summaryThreshold: number,
    readonly endsBatch: boolean = true,
  ) {}
}

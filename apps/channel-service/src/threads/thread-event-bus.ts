import { Logger, Provider } from '@nestjs/common';
import { Message } from '@qhorus/api';
import { EventStreamBus, LevelEvent } from '@qhorus/blocks-summarisation';

/** Injection token of the in-process bus carrying thread messages (as pipeline events) to the thread pipeline. */
export const THREAD_EVENT_BUS = 'QHORUS_THREAD_EVENT_BUS';

export type ThreadEventBus = EventStreamBus<LevelEvent<Message>>;

/** One bus per process; a failing subscriber is logged, never thrown back into the post. */
export const threadEventBusProvider: Provider = {
  provide: THREAD_EVENT_BUS,
  useFactory: (): ThreadEventBus => {
    const logger = new Logger('ThreadEventBus');
    return new EventStreamBus<LevelEvent<Message>>((err, event) =>
      logger.warn({ thread: event.key, err: err instanceof Error ? err.message : String(err) }, 'thread event subscriber failed'),
    );
  },
};

import { ChannelStreamEvent } from './channel-stream-event';

/**
 * Carries channel events to the other instances. Without Redis there are none to reach:
 * `LocalOnlyFanout` does nothing (one process serves every stream).
 */
export abstract class EventFanout {
  abstract publish(event: ChannelStreamEvent): void;
  abstract close(): Promise<void>;
}

export class LocalOnlyFanout extends EventFanout {
  publish(): void {}
  async close(): Promise<void> {}
}

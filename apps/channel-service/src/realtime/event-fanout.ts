import { ChannelStreamEvent } from './channel-stream-event';

/** Stops this instance's interest in other instances' events (one per `listen()`). */
export type StopListening = () => void;

/**
 * Carries channel events between instances (`ChannelEventFanout`, over the instance bus). On the
 * embedded database there are none to reach: `LocalOnlyFanout` does nothing (one process serves
 * every stream).
 */
export abstract class EventFanout {
  /** Offers a local event to the other instances (dropped when none of them has a stream open). */
  abstract publish(event: ChannelStreamEvent): void;
  /** Whether some other instance has a stream open, as far as this one has heard. */
  abstract get othersListening(): boolean;
  /**
   * This instance has a stream open and wants other instances' events from now on. Resolves once
   * the others have been told (bounded: a stream never waits on the bus for long).
   */
  abstract listen(): Promise<StopListening>;
  abstract close(): Promise<void>;
}

export class LocalOnlyFanout extends EventFanout {
  publish(): void {}
  get othersListening(): boolean {
    return false;
  }
  async listen(): Promise<StopListening> {
    return () => {};
  }
  async close(): Promise<void> {}
}

import { Logger } from '@nestjs/common';
import { BusHandler } from './instance-bus';

/** The handlers of each subscribed topic, by the broker's name for it (the drivers' shared bookkeeping). */
export class TopicHandlers {
  private readonly byTopic = new Map<string, { handlers: Set<BusHandler>; listening: Promise<void> }>();

  constructor(private readonly logger: Logger) {}

  /**
   * Adds `handler`, calling `listen` when it is the topic's first; resolves once the broker
   * listens. When it cannot, the topic is forgotten with its handlers (the caller may try again).
   */
  add(topic: string, handler: BusHandler, listen: () => Promise<unknown>): Promise<void> {
    const known = this.byTopic.get(topic);
    if (known) {
      known.handlers.add(handler);
      return known.listening;
    }
    const entry = { handlers: new Set([handler]), listening: Promise.resolve() };
    this.byTopic.set(topic, entry);
    entry.listening = listen().then(
      () => undefined,
      (err: unknown) => {
        if (this.byTopic.get(topic) === entry) this.byTopic.delete(topic);
        throw err;
      },
    );
    return entry.listening;
  }

  /** Removes `handler`; true when it was the topic's last (the broker may stop listening). */
  remove(topic: string, handler: BusHandler): boolean {
    const handlers = this.byTopic.get(topic)?.handlers;
    if (!handlers?.delete(handler) || handlers.size > 0) return false;
    this.byTopic.delete(topic);
    return true;
  }

  topics(): string[] {
    return [...this.byTopic.keys()];
  }

  clear(): void {
    this.byTopic.clear();
  }

  dispatch(topic: string, payload: string): void {
    for (const handler of this.byTopic.get(topic)?.handlers ?? []) {
      try {
        handler(payload);
      } catch (err) {
        this.logger.warn({ err, topic }, 'a bus handler failed');
      }
    }
  }
}

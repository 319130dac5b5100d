import { BusHandler, BusTopic, InstanceBus, Unsubscribe } from './instance-bus';
import { TopicHandlers } from './topic-handlers';

/**
 * The bus of one process (the embedded database serves one instance): a message reaches this
 * process's subscribers at once, and nothing is ever lost, so there is nothing to resync.
 */
export class LocalInstanceBus extends InstanceBus {
  readonly maxPayloadBytes = Number.MAX_SAFE_INTEGER;
  readonly reachesOtherInstances = false;
  private readonly handlers = new TopicHandlers(this.logger);

  async subscribe(topic: BusTopic, handler: BusHandler): Promise<Unsubscribe> {
    await this.handlers.add(topic.name, handler, async () => undefined);
    return async () => {
      this.handlers.remove(topic.name, handler);
    };
  }

  async publish(topic: BusTopic, payload: string): Promise<void> {
    this.handlers.dispatch(topic.name, payload);
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}

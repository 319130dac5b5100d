/** Called with an error thrown by a subscriber, and the event it was handling. */
export type SubscriberErrorHandler<T> = (error: unknown, event: T) => void;

interface Subscription<T> {
  readonly listener: (event: T) => void;
}

/**
 * A tiny in-process pub/sub. publish delivers synchronously, in subscription order, to the
 * subscribers present when it starts; a throwing subscriber is reported to `onSubscriberError`
 * and does not stop delivery to the others.
 */
export class EventStreamBus<T> {
  // Wrapper objects, so the same function subscribed twice is two subscriptions.
  private readonly subscriptions = new Set<Subscription<T>>();

  /** By default a subscriber's error is logged to stderr rather than silently dropped. */
  constructor(private readonly onSubscriberError: SubscriberErrorHandler<T> = logSubscriberError) {}

  /** Returns the unsubscribe function (idempotent). */
  subscribe(listener: (event: T) => void): () => void {
    const subscription: Subscription<T> = { listener };
    this.subscriptions.add(subscription);
    return () => {
      this.subscriptions.delete(subscription);
    };
  }

  get subscriberCount(): number {
    return this.subscriptions.size;
  }

  publish(event: T): void {
    for (const { listener } of [...this.subscriptions]) {
      try {
        listener(event);
      } catch (error) {
        try {
          this.onSubscriberError(error, event);
        } catch {
          // The error handler itself failed; the remaining subscribers still get the event.
        }
      }
    }
  }
}

function logSubscriberError(error: unknown): void {
  console.error('EventStreamBus subscriber failed:', error);
}

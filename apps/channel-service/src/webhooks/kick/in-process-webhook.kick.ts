import { WebhookKick } from './webhook-kick';

/** The embedded default: the deliverer runs in this process, so a wake-up is a call. */
export class InProcessWebhookKick extends WebhookKick {
  private drain: (() => void) | null = null;

  notify(): void {
    this.drain?.();
  }

  async start(drain: () => void): Promise<void> {
    this.drain = drain;
  }

  async close(): Promise<void> {
    this.drain = null;
  }
}

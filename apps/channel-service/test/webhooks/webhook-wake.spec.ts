import { MessageType } from '@qhorus/api';
import { loadConfig } from '../../src/config/app-config';
import { WebhookConfig } from '../../src/config/slices/webhook-config';
import { MessagePostedEvent } from '../../src/message-store/message-posted.event';
import { WebhookKick } from '../../src/webhooks/kick/webhook-kick';
import { WEBHOOK_WAKE_DELAY_MS, WebhookWake } from '../../src/webhooks/webhook-wake.listener';
import { WebhooksRepository } from '../../src/webhooks/webhooks.repository';

/** Counts the wake-ups it is asked for. */
class CountingKick extends WebhookKick {
  notified = 0;
  notify(): void {
    this.notified++;
  }
  async start(): Promise<void> {}
  async close(): Promise<void> {}
}

/** A post whose outbox row was written (`announced`: some hook may hear of it), or not. */
const posted = (announced = true) => new MessagePostedEvent({ channelId: '1', message: { type: MessageType.STATUS } as never, backlog: 1, summaryThreshold: 100, announced });

describe('webhook wake-up after posts', () => {
  let kick: CountingKick;
  let wake: WebhookWake;

  beforeEach(() => {
    jest.useFakeTimers();
    kick = new CountingKick();
    wake = new WebhookWake(kick, {} as WebhooksRepository, new WebhookConfig(loadConfig({})));
    wake.hookEnabled();
  });
  afterEach(() => {
    wake.beforeApplicationShutdown();
    jest.useRealTimers();
  });

  it('wakes the deliverers at once for a post after a quiet spell: no coalescing delay on a lone post', () => {
    wake.onMessagePosted(posted());
    expect(kick.notified).toBe(1);
    jest.advanceTimersByTime(WEBHOOK_WAKE_DELAY_MS * 5);
    wake.onMessagePosted(posted());
    expect(kick.notified).toBe(2);
  });

  it(`gives the posts that follow within ${WEBHOOK_WAKE_DELAY_MS} ms one more wake-up between them: at most one per ${WEBHOOK_WAKE_DELAY_MS} ms`, () => {
    wake.onMessagePosted(posted());
    expect(kick.notified).toBe(1);
    for (let i = 0; i < 5; i++) {
      jest.advanceTimersByTime(1);
      wake.onMessagePosted(posted());
    }
    expect(kick.notified).toBe(1); // coalesced
    jest.advanceTimersByTime(WEBHOOK_WAKE_DELAY_MS - 5);
    expect(kick.notified).toBe(2); // one wake-up, WEBHOOK_WAKE_DELAY_MS after the first
    // A steady 1,000 posts a second: about one wake-up per WEBHOOK_WAKE_DELAY_MS.
    const before = kick.notified;
    for (let ms = 0; ms < 1_000; ms++) {
      wake.onMessagePosted(posted());
      jest.advanceTimersByTime(1);
    }
    expect(kick.notified - before).toBeGreaterThanOrEqual(1_000 / WEBHOOK_WAKE_DELAY_MS - 1);
    expect(kick.notified - before).toBeLessThanOrEqual(1_000 / WEBHOOK_WAKE_DELAY_MS + 1);
  });

  it('never wakes for a post no hook may hear of (no outbox row: EVENT telemetry, hooks on other channels only)', () => {
    for (let i = 0; i < 5; i++) {
      wake.onMessagePosted(posted(false));
      jest.advanceTimersByTime(WEBHOOK_WAKE_DELAY_MS * 2);
    }
    expect(kick.notified).toBe(0);
  });

  it('wakes for a summary commit while some hook is enabled, never while none is', () => {
    wake.onSummaryUpdated();
    expect(kick.notified).toBe(1);
    const idle = new WebhookWake(kick, {} as WebhooksRepository, new WebhookConfig(loadConfig({})));
    jest.advanceTimersByTime(WEBHOOK_WAKE_DELAY_MS * 2);
    idle.onSummaryUpdated();
    jest.advanceTimersByTime(WEBHOOK_WAKE_DELAY_MS * 2);
    expect(kick.notified).toBe(1);
    idle.beforeApplicationShutdown();
  });
});

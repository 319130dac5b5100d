import { PROMPT_PREAMBLE_LABEL } from '@qhorus/blocks-summarisation';
import { FakeAnthropic, startFakeAnthropic } from '../../libs/blocks-summarisation/test/fake-anthropic-server';

/**
 * A fake Anthropic API that takes `delayMs` per call and records, per channel, how many calls
 * ran at once (a call counts until it is answered or its caller disconnects). Channels are told apart by their description (the prompt's "Channel purpose:").
 * The service's `llm` summariser talks to it, so spawned service processes can be observed.
 */
export interface LlmConcurrencyProbe {
  readonly baseURL: string;
  /** The most calls seen running at the same time for one channel, per channel. */
  readonly maxConcurrent: Map<string, number>;
  /** Calls in flight right now, all channels. */
  inFlight(): number;
  /** Replies to come will wait for `release()` instead of the delay (a "hanging" model). */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export async function startLlmConcurrencyProbe(delayMs: number): Promise<LlmConcurrencyProbe> {
  const running = new Map<string, number>();
  const maxConcurrent = new Map<string, number>();
  let held: { promise: Promise<void>; release: () => void } | null = null;
  const fake: FakeAnthropic = await startFakeAnthropic(async (request, index) => {
    const prompt = String(request.body?.messages?.[0]?.content ?? '');
    const channel = new RegExp(`${PROMPT_PREAMBLE_LABEL} (\\S+)`).exec(prompt)?.[1] ?? 'unknown';
    running.set(channel, (running.get(channel) ?? 0) + 1);
    maxConcurrent.set(channel, Math.max(maxConcurrent.get(channel) ?? 0, running.get(channel)!));
    try {
      // A call whose caller went away (a killed or exited worker) no longer runs for the service:
      // it stops counting when its connection closes, not when the held reply would be sent.
      await Promise.race([held ? held.promise : new Promise((r) => setTimeout(r, delayMs)), request.closed]);
      return `Summary of ${channel}, call ${index}.`;
    } finally {
      running.set(channel, running.get(channel)! - 1);
    }
  });
  return {
    baseURL: fake.baseURL,
    maxConcurrent,
    inFlight: () => [...running.values()].reduce((a, b) => a + b, 0),
    hold() {
      let release!: () => void;
      const promise = new Promise<void>((r) => (release = r));
      held = { promise, release };
    },
    release() {
      held?.release();
      held = null;
    },
    close: () => fake.close(),
  };
}

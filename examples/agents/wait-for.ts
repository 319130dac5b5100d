import type { ChannelEvent, Message, QhorusClient } from '@qhorus/client';

/**
 * The first message of `channel` after `afterSeq` that `match` accepts, from the live stream
 * (which replays from `afterSeq` on reconnect, so nothing posted meanwhile is missed).
 */
export async function nextMessage(client: QhorusClient, channel: string, afterSeq: number, match: (m: Message) => boolean, signal?: AbortSignal): Promise<Message> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    // Whatever is already there first: a reply may have come before we started listening.
    const earlier = (await client.listMessages(channel, { afterSeq })).find(match);
    if (earlier) return earlier;
    for await (const e of client.events(channel, { afterSeq, signal: stop.signal }) as AsyncGenerator<ChannelEvent>) {
      if (e.event === 'message.posted' && match(e.data)) return e.data;
    }
    throw new Error(`stopped waiting on ${channel} for a message after seq ${afterSeq}`);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    stop.abort();
  }
}

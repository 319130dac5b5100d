/**
 * A thread is identified by its channel and correlation id. The channel id is a number, so the
 * first ':' separates the two even when the correlation id contains colons.
 */
export function threadKey(channelId: string, correlationId: string): string {
  return `${channelId}:${correlationId}`;
}

import { Message } from '@qhorus/api';
import { LevelEvent } from '@qhorus/blocks-summarisation';

/** Raw messages are level 0 of the pipeline's hierarchy (their summaries would be level 1). */
export const MESSAGE_LEVEL = 0;

/** A message as a pipeline event of its thread. */
export function toThreadEvent(key: string, message: Message): LevelEvent<Message> {
  return { key, level: MESSAGE_LEVEL, at: message.createdAt, payload: message };
}

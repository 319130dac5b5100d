import { annotateSpan } from './spans';

export { inSpan } from './spans';

/** The span of one post (REST, batch or MCP `send_message`): its Postgres spans are its children. */
export const POST_SPAN = 'qhorus.post';
export const CHANNEL_ATTRIBUTE = 'qhorus.channel';
export const BATCH_SIZE_ATTRIBUTE = 'qhorus.batch.size';
const SEQ_ATTRIBUTE = 'qhorus.message.seq';
const LAST_SEQ_ATTRIBUTE = 'qhorus.message.last_seq';
const TYPE_ATTRIBUTE = 'qhorus.message.type';
const REPLAYED_ATTRIBUTE = 'qhorus.idempotent_replay';

interface Posted {
  message: { seq: number; type: string };
  replayed: boolean;
}

/** Names the post's seq and type on its span (never its content), and passes the outcome on. */
export function postedSpan<T extends Posted>(outcome: T): T {
  annotateSpan({ [SEQ_ATTRIBUTE]: outcome.message.seq, [TYPE_ATTRIBUTE]: outcome.message.type, [REPLAYED_ATTRIBUTE]: outcome.replayed });
  return outcome;
}

/** The batch's seq range on its span. */
export function postedBatchSpan<T extends { messages: { seq: number }[]; replayed: boolean }>(outcome: T): T {
  const seqs = outcome.messages.map((m) => m.seq);
  annotateSpan({ [SEQ_ATTRIBUTE]: seqs[0], [LAST_SEQ_ATTRIBUTE]: seqs[seqs.length - 1], [REPLAYED_ATTRIBUTE]: outcome.replayed });
  return outcome;
}

import { configSlice } from '../config-slice';

/** messages/: the bounds of a post, a read and a wait. */
export class MessagesConfig extends configSlice((config) => ({
  /** A message's `content` in UTF-8 bytes, and its `metadata` as JSON in UTF-8 bytes (413 above). */
  maxContentBytes: config.QHORUS_MAX_CONTENT_BYTES,
  maxMetadataBytes: config.QHORUS_MAX_METADATA_BYTES,
  batchMaxMessages: config.QHORUS_BATCH_MAX_MESSAGES,
  /** Messages a read answers when it names no `limit`. */
  pageLimitDefault: config.QHORUS_PAGE_LIMIT_DEFAULT,
  longPollMaxMs: config.QHORUS_LONG_POLL_MAX_MS,
})) {}

import { AppConfig } from '../app-config';

/** messages/: the bounds of a post, a read and a wait. */
export class MessagesConfig {
  /** A message's `content` in UTF-8 bytes, and its `metadata` as JSON in UTF-8 bytes (413 above). */
  readonly maxContentBytes: number;
  readonly maxMetadataBytes: number;
  readonly batchMaxMessages: number;
  /** Messages a read answers when it names no `limit`. */
  readonly pageLimitDefault: number;
  readonly longPollMaxMs: number;

  constructor(config: AppConfig) {
    this.maxContentBytes = config.QHORUS_MAX_CONTENT_BYTES;
    this.maxMetadataBytes = config.QHORUS_MAX_METADATA_BYTES;
    this.batchMaxMessages = config.QHORUS_BATCH_MAX_MESSAGES;
    this.pageLimitDefault = config.QHORUS_PAGE_LIMIT_DEFAULT;
    this.longPollMaxMs = config.QHORUS_LONG_POLL_MAX_MS;
  }
}

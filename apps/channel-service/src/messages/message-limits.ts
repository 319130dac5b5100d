import { PayloadTooLargeException } from '@nestjs/common';
import { MessagesConfig } from '../config/slices/messages-config';

/**
 * The size limits of one message, checked before anything is written (a batch checks each):
 * `content` (QHORUS_MAX_CONTENT_BYTES, UTF-8) and `metadata` (QHORUS_MAX_METADATA_BYTES, as JSON
 * in UTF-8). Both 413, naming the field (`messages.<i>.…` in a batch, `field` = `messages.<i>`) and the limit.
 */
export function assertMessageWithinLimits(message: { content?: string; metadata?: Record<string, unknown> }, config: MessagesConfig, field?: string): void {
  const where = field ? `${field}: ` : '';
  const contentBytes = Buffer.byteLength(message.content ?? '', 'utf8');
  if (contentBytes > config.maxContentBytes) {
    throw new PayloadTooLargeException(`${where}content is ${contentBytes} bytes; the limit is ${config.maxContentBytes} (QHORUS_MAX_CONTENT_BYTES)`);
  }
  if (message.metadata === undefined || message.metadata === null) return;
  const metadataBytes = Buffer.byteLength(JSON.stringify(message.metadata), 'utf8');
  if (metadataBytes > config.maxMetadataBytes) {
    throw new PayloadTooLargeException({
      message: `${where}metadata is ${metadataBytes} bytes as JSON; the limit is ${config.maxMetadataBytes} (QHORUS_MAX_METADATA_BYTES)`,
      details: [{ field: field ? `${field}.metadata` : 'metadata', problems: [`must be at most ${config.maxMetadataBytes} bytes as JSON`] }],
    });
  }
}

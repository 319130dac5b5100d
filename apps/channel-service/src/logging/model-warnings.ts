import { Logger } from '@nestjs/common';
import { ModelWarning } from '@qhorus/blocks-summarisation';

const logger = new Logger('ModelProvider');

/**
 * A model SDK's notice (a model's deprecation, reported once per model by the adapter) as one
 * structured warning through the app's logger (pino), instead of a bare line on stderr.
 */
export function logModelWarning({ provider, model, message }: ModelWarning): void {
  logger.warn({ provider, model, warning: message.replace(/\s+/g, ' ').trim() }, 'model SDK warning');
}

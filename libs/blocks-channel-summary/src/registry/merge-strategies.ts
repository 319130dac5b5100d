import { Message } from '@qhorus/api';
import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { SummariserConfigError } from './summariser-config.error';

export type NamedStrategies = Readonly<Record<string, ContentSummariser<Message>>>;

/**
 * Strategies from the module options and strategies contributed by a module (SUMMARISER_STRATEGIES),
 * as one map. A name in both is a start-up error rather than a silent pick of one of them.
 */
export function mergeStrategies(configured: NamedStrategies | undefined, contributed: NamedStrategies | undefined | null): Record<string, ContentSummariser<Message>> {
  const merged: Record<string, ContentSummariser<Message>> = { ...(configured ?? {}) };
  for (const [name, summariser] of Object.entries(contributed ?? {})) {
    if (Object.hasOwn(merged, name)) {
      throw new SummariserConfigError(`Summariser '${name}' is registered twice (in the options' strategies and in SUMMARISER_STRATEGIES)`);
    }
    merged[name] = summariser;
  }
  return merged;
}

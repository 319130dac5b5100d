import { Message } from '@qhorus/api';
import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { ChannelSummariser } from '../channel-summariser';
import { ChannelStateTracker } from '../state/channel-state-tracker';
import { DEFAULT_SUMMARISER_NAME, GENERIC_UNAVAILABLE_REASON } from './built-in-summarisers';
import { SummariserAvailability, SummariserEntry } from './summariser-availability';
import { UnknownSummariserError } from './unknown-summariser.error';

/**
 * The strategies a channel can pick by name (`summariser`). Pure: no framework; the Nest module
 * provides it (class token) through a factory, so it needs no decorator.
 * A null/undefined name means "the default strategy".
 */
export class SummariserRegistry {
  private readonly entries: ReadonlyMap<string, SummariserEntry>;
  /** One hook per strategy, made on first use (hooks are stateless wrappers). */
  private readonly hooks = new Map<string, ChannelSummariser>();
  private readonly tracker = new ChannelStateTracker();

  constructor(
    entries: ReadonlyMap<string, SummariserEntry>,
    readonly defaultName: string = DEFAULT_SUMMARISER_NAME,
    /** The text cap every hook holds its strategy's text to (default DEFAULT_SUMMARY_TEXT_MAX_CHARS). */
    readonly textMaxChars?: number,
  ) {
    this.entries = new Map(entries);
    if (!this.entries.has(defaultName)) throw new UnknownSummariserError(defaultName, this.names());
  }

  /** Registered names, built-ins first, in registration order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** @throws UnknownSummariserError listing the known names */
  get(name?: string | null): ContentSummariser<Message> {
    return this.entry(name).summariser;
  }

  /**
   * A strategy is available unless it reports `available === false` (the LLM tier without a
   * key). `tiered` stays available without a key: it falls back to its heuristic tier.
   */
  availability(name?: string | null): SummariserAvailability {
    const { summariser, unavailableReason } = this.entry(name);
    const flag = (summariser as { readonly available?: unknown }).available;
    return flag === false ? { available: false, reason: unavailableReason ?? GENERIC_UNAVAILABLE_REASON } : { available: true };
  }

  /**
   * The summary-slot hook running the named strategy: the composition of that strategy with the
   * state tracker (see ChannelSummariser), whatever the strategy is.
   */
  hookFor(name?: string | null): ChannelSummariser {
    const resolved = this.resolve(name);
    let hook = this.hooks.get(resolved);
    if (!hook) {
      hook = new ChannelSummariser(this.get(resolved), { name: resolved, textMaxChars: this.textMaxChars, tracker: this.tracker });
      this.hooks.set(resolved, hook);
    }
    return hook;
  }

  private resolve(name: string | null | undefined): string {
    return name ?? this.defaultName;
  }

  private entry(name: string | null | undefined): SummariserEntry {
    const resolved = this.resolve(name);
    const entry = this.entries.get(resolved);
    if (!entry) throw new UnknownSummariserError(resolved, this.names());
    return entry;
  }
}

import { ChannelStateSnapshot } from './state-snapshot';

interface Entry {
  readonly snapshot: ChannelStateSnapshot;
  readonly own: Readonly<Record<string, string>>;
}

/**
 * Remembers the snapshot behind each result this summariser returned, keyed by the result's
 * (frozen) annotations object. When that very result comes back as `previous` (a running summary
 * over chunks, the pipeline path) the state is rebuilt from the snapshot instead of decoding the
 * annotations again.
 * It is only a shortcut: a hit requires every own key to be unchanged, anything else (a result
 * read back from the database, edited, or produced by another tier) decodes from annotations.
 */
export class StateCache {
  private readonly entries = new WeakMap<object, Entry>();

  remember(annotations: Readonly<Record<string, string>>, snapshot: ChannelStateSnapshot, own: Readonly<Record<string, string>>): void {
    this.entries.set(annotations, { snapshot, own });
  }

  recall(annotations: Readonly<Record<string, string>>): ChannelStateSnapshot | undefined {
    const entry = this.entries.get(annotations);
    if (!entry) return undefined;
    for (const key in entry.own) {
      if (annotations[key] !== entry.own[key]) return undefined;
    }
    return entry.snapshot;
  }
}

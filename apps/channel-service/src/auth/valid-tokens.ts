/** Where the valid token hashes come from: the agents table (AgentsRepository). */
export interface TokenHashSource {
  listValidTokenHashes(): Promise<{ name: string; tokenHash: string }[]>;
  findValidTokenHash(name: string): Promise<string | null>;
}

/**
 * Every valid agent token hash (hash → agent name) this instance knows, loaded at start and kept
 * current by the credential events (registration, rotation, revocation, on any instance). A token
 * found here is valid without a query and without touching the failed-authentication limit, so a
 * client sharing an address with someone sending bogus tokens keeps working. A change drops the
 * agent's old hash at once (synchronously, before the next request) and reads its current one.
 */
export class ValidTokens {
  private readonly byHash = new Map<string, string>();
  private readonly hashByName = new Map<string, string>();
  /** Per agent, bumped by each change heard: a read that raced a later change is not applied. */
  private readonly generation = new Map<string, number>();
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly source: TokenHashSource) {}

  /** The agent whose valid token has this hash, waiting for changes being read (a fresh agent's first request). */
  async find(hash: string): Promise<string | undefined> {
    const name = this.byHash.get(hash);
    if (name !== undefined || this.pending.size === 0) return name;
    await Promise.all([...this.pending]);
    return this.byHash.get(hash);
  }

  /** Replaces the whole set with the table's (at start, and when changes may have been missed). */
  loadAll(): Promise<void> {
    const load = this.source.listValidTokenHashes().then((rows) => {
      this.byHash.clear();
      this.hashByName.clear();
      for (const { name, tokenHash } of rows) this.put(name, tokenHash);
    });
    return this.track(load);
  }

  /** A token this instance just issued (registration, rotation): valid from now on. */
  add(name: string, hash: string): void {
    this.drop(name);
    this.put(name, hash);
  }

  /** The agent's credentials changed somewhere: its old hash stops at once, its current one is read. */
  changed(name: string): Promise<void> {
    const generation = (this.generation.get(name) ?? 0) + 1;
    this.generation.set(name, generation);
    this.drop(name);
    const read = this.source.findValidTokenHash(name).then((hash) => {
      if (hash !== null && this.generation.get(name) === generation) this.put(name, hash);
    });
    return this.track(read);
  }

  get size(): number {
    return this.byHash.size;
  }

  private put(name: string, hash: string): void {
    this.byHash.set(hash, name);
    this.hashByName.set(name, hash);
  }

  private drop(name: string): void {
    const old = this.hashByName.get(name);
    if (old !== undefined) this.byHash.delete(old);
    this.hashByName.delete(name);
  }

  private track(work: Promise<void>): Promise<void> {
    const tracked = work.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
    return tracked;
  }
}

/**
 * A bounded LRU of token-hash → agent name with a TTL, so a request needs no database round
 * trip to authenticate, and a revoked token stops working within the TTL.
 */
export class TokenCache {
  private readonly entries = new Map<string, { name: string; expiresAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(hash: string): string | undefined {
    const hit = this.entries.get(hash);
    if (!hit) return undefined;
    if (hit.expiresAt <= this.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    // Re-insert to mark as most recently used (Map keeps insertion order).
    this.entries.delete(hash);
    this.entries.set(hash, hit);
    return hit.name;
  }

  set(hash: string, name: string): void {
    if (this.ttlMs === 0) return;
    this.entries.delete(hash);
    this.entries.set(hash, { name, expiresAt: this.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}

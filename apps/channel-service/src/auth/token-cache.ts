/**
 * A bounded LRU of token-hash → value with a TTL. The positive cache (hash → agent name) spares a
 * request its database round trip; the negative one (hash → true) spares it for a token that
 * matched nobody. Revocation and rotation do not wait for the TTL: every instance drops the
 * agent's entries when told (CredentialEvents); the TTL is only the backstop.
 */
export class TokenCache<V = string> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(hash: string): V | undefined {
    const hit = this.entries.get(hash);
    if (!hit) return undefined;
    if (hit.expiresAt <= this.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    // Re-insert to mark as most recently used (Map keeps insertion order).
    this.entries.delete(hash);
    this.entries.set(hash, hit);
    return hit.value;
  }

  set(hash: string, value: V): void {
    if (this.ttlMs === 0) return;
    this.entries.delete(hash);
    this.entries.set(hash, { value, expiresAt: this.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Drops every entry holding `value` (an agent's tokens, when it is revoked or rotated). A scan: rare, and bounded by maxEntries. */
  deleteValue(value: V): void {
    for (const [hash, entry] of this.entries) if (entry.value === value) this.entries.delete(hash);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** A registered agent. The token itself is never stored, only its hash. */
export interface Agent {
  id: string;
  name: string;
  createdAt: Date;
  /** Written behind in batches (QHORUS_LAST_SEEN_FLUSH_MS): up to one interval late; null if never seen. */
  lastSeenAt: Date | null;
  revokedAt: Date | null;
}

export interface AgentRow {
  id: string;
  name: string;
  created_at: Date;
  last_seen_at: Date | null;
  revoked_at: Date | null;
}

export const AGENT_COLUMNS = 'id, name, created_at, last_seen_at, revoked_at';

export const toAgent = (r: AgentRow): Agent => ({
  id: String(r.id),
  name: r.name,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  revokedAt: r.revoked_at,
});

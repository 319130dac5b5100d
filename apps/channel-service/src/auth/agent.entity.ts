/** A registered agent. The token itself is never stored, only its hash. */
export interface Agent {
  id: string;
  name: string;
  createdAt: Date;
}

export interface AgentRow {
  id: string;
  name: string;
  created_at: Date;
}

export const toAgent = (r: AgentRow): Agent => ({ id: String(r.id), name: r.name, createdAt: r.created_at });

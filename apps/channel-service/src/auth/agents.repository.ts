import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { Agent, AgentRow, toAgent } from './agent.entity';

@Injectable()
export class AgentsRepository {
  constructor(private readonly db: Database) {}

  async insert(name: string, tokenHash: string): Promise<Agent> {
    const rows: AgentRow[] = await this.db.query(
      `INSERT INTO agents (name, token_hash) VALUES ($1, $2) RETURNING id, name, created_at`,
      [name, tokenHash],
    );
    return toAgent(rows[0]);
  }

  async list(): Promise<Agent[]> {
    const rows: AgentRow[] = await this.db.query(
      `SELECT id, name, created_at FROM agents WHERE revoked_at IS NULL ORDER BY name`,
    );
    return rows.map(toAgent);
  }

  async findNameByTokenHash(tokenHash: string): Promise<string | null> {
    const rows: { name: string }[] = await this.db.query(
      `SELECT name FROM agents WHERE token_hash = $1 AND revoked_at IS NULL`,
      [tokenHash],
    );
    return rows[0]?.name ?? null;
  }
}

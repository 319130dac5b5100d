import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { Agent, AGENT_COLUMNS, AgentRow, toAgent } from './agent.entity';

const INSERT_SQL = `INSERT INTO agents (name, token_hash) VALUES ($1, $2) RETURNING ${AGENT_COLUMNS}`;
const LIST_SQL = `SELECT ${AGENT_COLUMNS} FROM agents WHERE revoked_at IS NULL ORDER BY name`;
const FIND_BY_TOKEN_HASH_SQL = `SELECT name FROM agents WHERE token_hash = $1 AND revoked_at IS NULL`;
/** Every valid token hash (ValidTokens): one row per agent that is not revoked. */
const LIST_VALID_TOKEN_HASHES_SQL = `SELECT name, token_hash FROM agents WHERE revoked_at IS NULL`;
const FIND_VALID_TOKEN_HASH_SQL = `SELECT token_hash FROM agents WHERE name = $1 AND revoked_at IS NULL`;
const FIND_BY_NAME_SQL = `SELECT ${AGENT_COLUMNS} FROM agents WHERE name = $1`;
/** Revokes once: a second revoke finds the row already revoked and changes nothing. */
const REVOKE_SQL = `UPDATE agents SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL RETURNING ${AGENT_COLUMNS}`;
/** The old hash is overwritten in the same row: the old token matches nothing from this commit on. */
const ROTATE_SQL = `UPDATE agents SET token_hash = $2 WHERE name = $1 AND revoked_at IS NULL RETURNING ${AGENT_COLUMNS}`;
/** One statement per flush, whatever the number of agents seen; a time never moves backwards. */
const TOUCH_LAST_SEEN_SQL = `
  UPDATE agents a SET last_seen_at = GREATEST(COALESCE(a.last_seen_at, v.seen), v.seen)
  FROM unnest($1::text[], $2::timestamptz[]) AS v(name, seen)
  WHERE a.name = v.name`;

@Injectable()
export class AgentsRepository {
  constructor(private readonly db: Database) {}

  async insert(name: string, tokenHash: string): Promise<Agent> {
    const rows: AgentRow[] = await this.db.query(INSERT_SQL, [name, tokenHash]);
    return toAgent(rows[0]);
  }

  async list(): Promise<Agent[]> {
    const rows: AgentRow[] = await this.db.query(LIST_SQL);
    return rows.map(toAgent);
  }

  async findNameByTokenHash(tokenHash: string): Promise<string | null> {
    const rows: { name: string }[] = await this.db.query(FIND_BY_TOKEN_HASH_SQL, [tokenHash]);
    return rows[0]?.name ?? null;
  }

  /** The agent by name, revoked or not; null if the name was never registered. */
  async listValidTokenHashes(): Promise<{ name: string; tokenHash: string }[]> {
    const rows: { name: string; token_hash: string }[] = await this.db.query(LIST_VALID_TOKEN_HASHES_SQL);
    return rows.map((r) => ({ name: r.name, tokenHash: r.token_hash }));
  }

  async findValidTokenHash(name: string): Promise<string | null> {
    const rows: { token_hash: string }[] = await this.db.query(FIND_VALID_TOKEN_HASH_SQL, [name]);
    return rows[0]?.token_hash ?? null;
  }

  async findByName(name: string): Promise<Agent | null> {
    const rows: AgentRow[] = await this.db.query(FIND_BY_NAME_SQL, [name]);
    return rows[0] ? toAgent(rows[0]) : null;
  }

  /** The agent as revoked now; null when there was no active agent of that name. */
  async revoke(name: string): Promise<Agent | null> {
    const rows: AgentRow[] = await this.db.query(REVOKE_SQL, [name]);
    return rows[0] ? toAgent(rows[0]) : null;
  }

  /** The agent with its new token hash; null when there is no active agent of that name. */
  async rotate(name: string, tokenHash: string): Promise<Agent | null> {
    const rows: AgentRow[] = await this.db.query(ROTATE_SQL, [name, tokenHash]);
    return rows[0] ? toAgent(rows[0]) : null;
  }

  async touchLastSeen(seen: ReadonlyMap<string, Date>): Promise<void> {
    if (seen.size === 0) return;
    await this.db.query(TOUCH_LAST_SEEN_SQL, [[...seen.keys()], [...seen.values()]]);
  }
}

import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

/** The row holding the generated admin token's SHA-256 (hex); the token itself is never stored. */
export const ADMIN_TOKEN_HASH_SECRET = 'admin_token_sha256';

const INSERT_IF_ABSENT_SQL = `INSERT INTO deployment_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`;
const READ_SQL = `SELECT value FROM deployment_secrets WHERE name = $1`;

/** Deployment-wide values every instance on the database agrees on. */
@Injectable()
export class DeploymentSecretsRepository {
  constructor(private readonly db: Database) {}

  async read(name: string): Promise<string | null> {
    const rows: { value: string }[] = await this.db.query(READ_SQL, [name]);
    return rows[0]?.value ?? null;
  }

  /**
   * Stores `value` unless the name already has one, then reads back what is stored: instances
   * starting together all end up with the first one's value. Two statements on purpose: a read in
   * the insert's own statement would use its snapshot and could miss a concurrent winner's row.
   */
  async insertIfAbsent(name: string, value: string): Promise<string> {
    await this.db.query(INSERT_IF_ABSENT_SQL, [name, value]);
    const stored = await this.read(name);
    if (stored === null) throw new Error(`deployment secret '${name}' vanished right after it was stored`);
    return stored;
  }
}

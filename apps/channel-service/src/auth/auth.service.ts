import { ConflictException, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { isUniqueViolation } from '../common/database-errors';
import { resolveAdminToken } from './admin-token';
import { Agent } from './agent.entity';
import { AgentsRepository } from './agents.repository';
import { ADMIN, Principal } from './principal';
import { TokenCache } from './token-cache';
import { generateToken, hashToken, sameSecret } from './tokens';

@Injectable()
export class AuthService {
  private readonly adminToken: string;
  private readonly cache: TokenCache;

  constructor(
    private readonly agents: AgentsRepository,
    config: AppConfig,
  ) {
    this.adminToken = resolveAdminToken(config);
    this.cache = new TokenCache(config.QHORUS_TOKEN_CACHE_SIZE, config.QHORUS_TOKEN_CACHE_TTL_MS);
  }

  /** Resolves a bearer token to a principal, or null when it matches nobody. */
  async authenticate(token: string): Promise<Principal | null> {
    if (sameSecret(token, this.adminToken)) return ADMIN;
    const hash = hashToken(token);
    const cached = this.cache.get(hash);
    if (cached) return { kind: 'agent', name: cached };
    const name = await this.agents.findNameByTokenHash(hash);
    if (!name) return null;
    this.cache.set(hash, name);
    return { kind: 'agent', name };
  }

  /** Registers an agent; the returned token is shown once and stored only as a hash. */
  async register(name: string): Promise<{ agent: Agent; token: string }> {
    const token = generateToken();
    try {
      const agent = await this.agents.insert(name, hashToken(token));
      return { agent, token };
    } catch (e) {
      if (isUniqueViolation(e)) throw new ConflictException(`Agent name '${name}' is already taken`);
      throw e;
    }
  }

  list(): Promise<Agent[]> {
    return this.agents.list();
  }
}

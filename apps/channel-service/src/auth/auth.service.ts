import { ConflictException, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { isUniqueViolation } from '../common/database-errors';
import { resolveAdminToken } from './admin-token';
import { Agent } from './agent.entity';
import { AgentsRepository } from './agents.repository';
import { ADMIN, Principal } from './principal';
import { TokenCache } from './token-cache';
import { generateToken, hashToken, sameDigest, tokenDigest } from './tokens';

@Injectable()
export class AuthService {
  private readonly adminDigest: Buffer;
  private readonly cache: TokenCache;

  constructor(
    private readonly agents: AgentsRepository,
    config: AppConfig,
  ) {
    this.adminDigest = tokenDigest(resolveAdminToken(config));
    this.cache = new TokenCache(config.QHORUS_TOKEN_CACHE_SIZE, config.QHORUS_TOKEN_CACHE_TTL_MS);
  }

  /**
   * Resolves a bearer token to a principal, or null when it matches nobody. One SHA-256 per
   * request (this runs on every request): the digest is compared with the admin's in constant
   * time, and its hex keys the cache and the agents table.
   */
  async authenticate(token: string): Promise<Principal | null> {
    const digest = tokenDigest(token);
    if (sameDigest(digest, this.adminDigest)) return ADMIN;
    const hash = digest.toString('hex');
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

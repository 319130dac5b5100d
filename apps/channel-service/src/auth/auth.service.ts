import { BeforeApplicationShutdown, ConflictException, Injectable, Logger, NotFoundException, OnApplicationBootstrap } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { isUniqueViolation } from '../common/database-errors';
import { AuthConfig } from '../config/slices/auth-config';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { AdminCredential } from './admin-credential';
import { Agent } from './agent.entity';
import { AgentCredentialsChangedEvent } from './agent-credentials-changed.event';
import { AgentsRepository } from './agents.repository';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { CredentialEvents } from './credential-events';
import { LastSeenRecorder } from './last-seen-recorder';
import { ADMIN, Principal } from './principal';
import { TokenCache } from './token-cache';
import { ValidTokens } from './valid-tokens';
import { generateToken, hashToken, sameDigest, tokenDigest } from './tokens';

/** The 409 of a taken name, saying what to do instead (a walk-through run twice lands here). */
export const nameTakenMessage = (name: string): string =>
  `Agent name '${name}' is already taken (a revoked agent's name is never registered again). To get a new token for it, ` +
  `the admin rotates it: POST /api/v1/agents/${name}/token (the old token stops working)`;

/** Used as the client address when the caller has none to give (unit tests, embedders). */
export const UNKNOWN_ADDRESS = 'unknown';

@Injectable()
export class AuthService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(AuthService.name);
  /** Every valid agent token's hash: a valid token never counts against the failure limit. */
  private readonly valid: ValidTokens;
  private readonly known: TokenCache<string>;
  private readonly unknown: TokenCache<true>;
  private readonly failures: AuthFailureLimiter;
  private readonly lastSeen: LastSeenRecorder;
  /** Lookups in flight, by token hash (bounded by the failure limit and the pool). */
  private readonly lookups = new Map<string, Promise<string | null>>();
  /** Bumped by every credential change heard, so a lookup that raced one never caches its answer. */
  private generation = 0;

  constructor(
    private readonly agents: AgentsRepository,
    config: AuthConfig,
    private readonly admin: AdminCredential,
    private readonly credentialEvents: CredentialEvents,
    private readonly events: EventEmitter2,
  ) {
    this.known = new TokenCache(config.knownTokens.size, config.knownTokens.ttlMs);
    this.unknown = new TokenCache(config.unknownTokens.size, config.unknownTokens.ttlMs);
    this.failures = new AuthFailureLimiter(new RateLimiter(config.failures));
    this.lastSeen = new LastSeenRecorder(agents, config.lastSeenFlushMs);
    this.valid = new ValidTokens(agents);
    credentialEvents.subscribe((name) => this.forget(name));
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.valid.loadAll();
    this.lastSeen.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.lastSeen.stop();
    this.credentialEvents.close();
  }

  /**
   * Resolves a bearer token to a principal, or null when it matches nobody (the caller answers
   * 401). One SHA-256 per request: the digest is compared with the admin's in constant time, and
   * its hex keys the caches and the agents table. A token that matched nobody is remembered
   * (negative cache), and each failure counts against the client address: over the limit, this
   * throws 429 and unknown tokens from that address are not looked up at all.
   */
  async authenticate(token: string, address = UNKNOWN_ADDRESS): Promise<Principal | null> {
    const digest = tokenDigest(token);
    if (sameDigest(digest, this.admin.digest)) return ADMIN;
    const hash = digest.toString('hex');
    const valid = await this.valid.find(hash);
    if (valid) return this.agentSeen(valid);
    // Not a token this instance knows to be valid: only now do the failure limit and the caches apply.
    const cached = this.known.get(hash);
    if (cached) return this.agentSeen(cached);
    if (this.unknown.get(hash)) return this.failed(address);
    // Requests carrying a token already being looked up share that one query (and its reservation):
    // a fleet's first burst of requests after a start must not look like a flood of failures.
    const joined = this.lookups.get(hash);
    if (joined) {
      const name = await joined;
      return name ? this.agentSeen(name) : this.failed(address);
    }
    this.failures.reserveLookup(address); // 429 here, before any query, once the address is over its limit
    let name: string | null;
    try {
      name = await this.lookUp(hash);
    } catch (err) {
      this.failures.refund(address); // the database failed (503), not the client
      throw err;
    }
    if (!name) return null; // the reserved failure stands
    this.failures.refund(address);
    return this.agentSeen(name);
  }

  /** A request that carried no token at all: counts as a failure of its address (401, or 429 over the limit). */
  missingToken(address = UNKNOWN_ADDRESS): void {
    this.failures.recordFailure(address);
  }

  /** Registers an agent; the returned token is shown once and stored only as a hash. A revoked name stays taken. */
  async register(name: string): Promise<{ agent: Agent; token: string }> {
    const token = generateToken();
    let agent: Agent;
    try {
      agent = await this.agents.insert(name, hashToken(token));
    } catch (e) {
      if (isUniqueViolation(e)) throw new ConflictException(nameTakenMessage(name));
      throw e;
    }
    this.valid.add(name, hashToken(token));
    await this.announce(name); // the other instances learn the new token before the caller does
    return { agent, token };
  }

  list(): Promise<Agent[]> {
    return this.agents.list();
  }

  /** Revokes the agent's token on every instance. Idempotent: revoking a revoked agent answers its first revocation. */
  async revoke(name: string): Promise<Agent> {
    const revoked = (await this.agents.revoke(name)) ?? (await this.agents.findByName(name));
    if (!revoked) throw new NotFoundException(`Agent '${name}' not found`);
    await this.announce(name);
    return revoked;
  }

  /** Replaces the agent's token; the old one stops working on every instance. The new one is shown once. */
  async rotate(name: string): Promise<{ agent: Agent; token: string }> {
    const token = generateToken();
    const agent = await this.agents.rotate(name, hashToken(token));
    if (!agent) throw new NotFoundException(`Agent '${name}' not found (or revoked)`);
    await this.announce(name);
    this.valid.add(name, hashToken(token));
    return { agent, token };
  }

  /** Writes the last-seen times noted so far (tests; shutdown does it by itself). */
  flushLastSeen(): Promise<void> {
    return this.lastSeen.flush();
  }

  /** One query per token hash however many requests carry it at once; the answer goes to the caches. */
  private lookUp(hash: string): Promise<string | null> {
    let pending = this.lookups.get(hash);
    if (!pending) {
      const generation = this.generation;
      pending = this.agents
        .findNameByTokenHash(hash)
        .then((name) => {
          // A credential change heard meanwhile may postdate what this query read: answer it, cache nothing.
          if (generation !== this.generation) return name;
          if (name) this.known.set(hash, name);
          else this.unknown.set(hash, true);
          return name;
        })
        .finally(() => this.lookups.delete(hash));
      this.lookups.set(hash, pending);
    }
    return pending;
  }

  private agentSeen(name: string): Principal {
    this.lastSeen.seen(name);
    return { kind: 'agent', name };
  }

  private failed(address: string): null {
    this.failures.recordFailure(address);
    return null;
  }

  /** A read of the valid tokens set off by a credential event: a failure is logged (the lookup path still answers those tokens). */
  private reading(read: Promise<void>): void {
    read.catch((err: Error) => this.logger.warn({ err: err.message }, 'could not read the valid token hashes after a credential change'));
  }

  /** The change is committed: tell every instance (this one synchronously). Telling the others failing is logged; their cache TTL is then the bound. */
  private async announce(name: string): Promise<void> {
    try {
      await this.credentialEvents.publish(name);
    } catch (err) {
      this.logger.warn({ agent: name, err: (err as Error).message }, 'could not tell the other instances about a credential change; their token cache TTL bounds it');
    }
  }

  private forget(name: string | null): void {
    this.generation++;
    if (name === null) {
      this.known.clear();
      this.reading(this.valid.loadAll());
      return;
    }
    this.known.deleteValue(name);
    this.reading(this.valid.changed(name));
    this.events.emit(AgentCredentialsChangedEvent.NAME, new AgentCredentialsChangedEvent(name));
  }
}

import { EventEmitter2 } from '@nestjs/event-emitter';
import { loadConfig } from '../../src/config/app-config';
import { AuthConfig } from '../../src/config/slices/auth-config';
import { AdminCredential } from '../../src/auth/admin-credential';
import { AgentsRepository } from '../../src/auth/agents.repository';
import { AuthService } from '../../src/auth/auth.service';
import { CredentialEvents } from '../../src/auth/credential-events';
import { LocalInstanceBus } from '../../src/bus/local-instance-bus';
import { ADMIN } from '../../src/auth/principal';
import { hashToken } from '../../src/auth/tokens';
import { TooManyRequestsException } from '../../src/rate-limit/too-many-requests.exception';

const ADMIN_TOKEN = 'qha_unit-admin-token-0123456789';
const AGENT_TOKEN = 'qh_agent-token-abcdefghijklmnop';
const NEW_TOKEN_HASH = 'f'.repeat(64);

/** An agents table in memory, counting the token lookups that reach it. */
function agentsWith(rows: Record<string, string>) {
  const lookups: string[] = [];
  const repo = {
    findNameByTokenHash: async (hash: string) => {
      lookups.push(hash);
      return rows[hash] ?? null;
    },
    rotate: async (name: string, hash: string) => {
      for (const [h, n] of Object.entries(rows)) if (n === name) delete rows[h];
      rows[hash] = name;
      return { id: '1', name, createdAt: new Date(), lastSeenAt: null, revokedAt: null };
    },
  } as unknown as AgentsRepository;
  return { repo, lookups };
}

function authService(repo: AgentsRepository, env: Record<string, string> = {}) {
  const config = new AuthConfig(loadConfig({ QHORUS_ADMIN_TOKEN: ADMIN_TOKEN, ...env }));
  return new AuthService(repo, config, AdminCredential.fromHash(hashToken(ADMIN_TOKEN)), new CredentialEvents(new LocalInstanceBus()), new EventEmitter2());
}

describe('AuthService.authenticate', () => {
  it('recognises the admin token without touching the agents table', async () => {
    const { repo, lookups } = agentsWith({});
    expect(await authService(repo).authenticate(ADMIN_TOKEN)).toEqual(ADMIN);
    expect(lookups).toHaveLength(0);
  });

  it('resolves an agent token by its stored hash once, then from the cache', async () => {
    const { repo, lookups } = agentsWith({ [hashToken(AGENT_TOKEN)]: 'alice' });
    const auth = authService(repo);
    for (let i = 0; i < 3; i++) expect(await auth.authenticate(AGENT_TOKEN)).toEqual({ kind: 'agent', name: 'alice' });
    expect(lookups).toEqual([hashToken(AGENT_TOKEN)]);
  });

  it('answers null for a token that matches nobody, including near-misses of the admin token', async () => {
    const { repo } = agentsWith({ [hashToken(AGENT_TOKEN)]: 'alice' });
    const auth = authService(repo);
    for (const token of ['unknown-token', ADMIN_TOKEN.slice(0, -1), `${ADMIN_TOKEN}x`, ADMIN_TOKEN.toUpperCase()]) {
      expect(await auth.authenticate(token)).toBeNull();
    }
  });

  it('looks an unknown token up once: the negative cache answers the repeats', async () => {
    const { repo, lookups } = agentsWith({});
    const auth = authService(repo, { QHORUS_AUTH_FAILURE_BURST: '1000' });
    for (let i = 0; i < 50; i++) expect(await auth.authenticate('qh_bogus', '10.0.0.1')).toBeNull();
    expect(lookups).toEqual([hashToken('qh_bogus')]);
  });

  it('over the failure burst an address gets 429 and its unknown tokens are not looked up; known tokens still pass', async () => {
    const { repo, lookups } = agentsWith({ [hashToken(AGENT_TOKEN)]: 'alice' });
    const auth = authService(repo, { QHORUS_AUTH_FAILURE_BURST: '3', QHORUS_AUTH_FAILURES_PER_SECOND: '1' });
    expect(await auth.authenticate(AGENT_TOKEN, '10.0.0.2')).toEqual({ kind: 'agent', name: 'alice' });
    for (let i = 0; i < 3; i++) expect(await auth.authenticate(`qh_bogus-${i}`, '10.0.0.2')).toBeNull();
    await expect(auth.authenticate('qh_bogus-3', '10.0.0.2')).rejects.toThrow(TooManyRequestsException);
    await expect(auth.authenticate('qh_bogus-4', '10.0.0.2')).rejects.toThrow(/QHORUS_AUTH_FAILURE_BURST/);
    expect(lookups).toHaveLength(4); // alice + the three within the burst
    expect(await auth.authenticate(AGENT_TOKEN, '10.0.0.2')).toEqual({ kind: 'agent', name: 'alice' });
    expect(await auth.authenticate(ADMIN_TOKEN, '10.0.0.2')).toEqual(ADMIN);
    expect(await auth.authenticate('qh_bogus-5', '10.0.0.3')).toBeNull(); // another address has its own bucket
  });

  it('a lookup that fails (the database is down) is not charged to the address: the client did nothing wrong', async () => {
    const { repo } = agentsWith({});
    const auth = authService(repo, { QHORUS_AUTH_FAILURE_BURST: '1' });
    const down = jest.spyOn(repo, 'findNameByTokenHash').mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
    await expect(auth.authenticate('qh_valid-maybe', '10.0.0.9')).rejects.toThrow(/ECONNREFUSED/);
    down.mockRestore();
    expect(await auth.authenticate('qh_bogus', '10.0.0.9')).toBeNull(); // 401, not 429: the one failure allowed is still there
  });

  it('after a rotation the old token is refused at once, not after the cache TTL', async () => {
    const { repo } = agentsWith({ [hashToken(AGENT_TOKEN)]: 'alice' });
    const auth = authService(repo, { QHORUS_TOKEN_CACHE_TTL_MS: '3600000' });
    expect(await auth.authenticate(AGENT_TOKEN)).toEqual({ kind: 'agent', name: 'alice' });
    jest.spyOn(repo, 'rotate').mockImplementation(async (name) => {
      (repo as unknown as { findNameByTokenHash: (h: string) => Promise<string | null> }).findNameByTokenHash = async (h) => (h === NEW_TOKEN_HASH ? name : null);
      return { id: '1', name, createdAt: new Date(), lastSeenAt: null, revokedAt: null };
    });
    await auth.rotate('alice');
    expect(await auth.authenticate(AGENT_TOKEN)).toBeNull();
  });
});

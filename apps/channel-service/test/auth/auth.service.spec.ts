import { loadConfig } from '../../src/config/app-config';
import { AgentsRepository } from '../../src/auth/agents.repository';
import { AuthService } from '../../src/auth/auth.service';
import { ADMIN } from '../../src/auth/principal';
import { hashToken } from '../../src/auth/tokens';

const ADMIN_TOKEN = 'qha_unit-admin-token-0123456789';
const AGENT_TOKEN = 'qh_agent-token-abcdefghijklmnop';

/** An agents table of one row, counting the lookups that reach it. */
function agentsWith(rows: Record<string, string>) {
  const lookups: string[] = [];
  const repo = {
    findNameByTokenHash: async (hash: string) => {
      lookups.push(hash);
      return rows[hash] ?? null;
    },
  } as unknown as AgentsRepository;
  return { repo, lookups };
}

describe('AuthService.authenticate', () => {
  const config = loadConfig({ QHORUS_ADMIN_TOKEN: ADMIN_TOKEN });

  it('recognises the admin token without touching the agents table', async () => {
    const { repo, lookups } = agentsWith({});
    const auth = new AuthService(repo, config);
    expect(await auth.authenticate(ADMIN_TOKEN)).toEqual(ADMIN);
    expect(lookups).toHaveLength(0);
  });

  it('resolves an agent token by its stored hash once, then from the cache', async () => {
    const { repo, lookups } = agentsWith({ [hashToken(AGENT_TOKEN)]: 'alice' });
    const auth = new AuthService(repo, config);
    for (let i = 0; i < 3; i++) expect(await auth.authenticate(AGENT_TOKEN)).toEqual({ kind: 'agent', name: 'alice' });
    expect(lookups).toEqual([hashToken(AGENT_TOKEN)]);
  });

  it('answers null for a token that matches nobody, including near-misses of the admin token', async () => {
    const { repo } = agentsWith({ [hashToken(AGENT_TOKEN)]: 'alice' });
    const auth = new AuthService(repo, config);
    for (const token of ['unknown-token', ADMIN_TOKEN.slice(0, -1), `${ADMIN_TOKEN}x`, ADMIN_TOKEN.toUpperCase()]) {
      expect(await auth.authenticate(token)).toBeNull();
    }
  });
});

import { Client } from 'pg';
import { ADMIN, Principal } from '../apps/channel-service/src/auth/principal';
import { accessParams, canAccess, publicChannelSql, readableSql } from '../apps/channel-service/src/channels/channel-access';
import { TEST_PG_ADMIN_URL } from './support/test-database';

const MEMBER_LISTS: (string[] | null)[] = [null, [], ['alice'], ['alice', 'bob']];
const PRINCIPALS: Principal[] = [ADMIN, { kind: 'agent', name: 'alice' }, { kind: 'agent', name: 'carol' }];

const READABLE_SQL = `SELECT ${readableSql('t.members', { name: '$2', admin: '$3' })} IS TRUE AS readable,
  ${publicChannelSql('t.members')} IS TRUE AS public
  FROM (SELECT $1::text[] AS members) t`;

/** The access rule's two renderings (in process, SQL in Postgres) agree on every case. */
describe('the channel access rule', () => {
  let pg: Client;
  beforeAll(async () => {
    pg = new Client({ connectionString: TEST_PG_ADMIN_URL });
    await pg.connect();
  });
  afterAll(() => pg?.end());

  const cases = MEMBER_LISTS.flatMap((members) => PRINCIPALS.map((principal) => ({ members, principal })));

  it.each(cases)('members $members, $principal.kind $principal.name: SQL and canAccess agree', async ({ members, principal }) => {
    const who = accessParams(principal);
    const { rows } = await pg.query(READABLE_SQL, [members, who.name, who.admin]);
    const isPublic = !members || members.length === 0;
    expect(rows[0]).toEqual({ readable: canAccess({ members }, principal), public: isPublic });
  });

  it('reads as DESIGN §6 says: public for everyone, private for members and the admin only', () => {
    const [admin, alice, carol] = PRINCIPALS;
    expect([admin, alice, carol].map((p) => canAccess({ members: null }, p))).toEqual([true, true, true]);
    expect([admin, alice, carol].map((p) => canAccess({ members: [] }, p))).toEqual([true, true, true]);
    expect([admin, alice, carol].map((p) => canAccess({ members: ['alice'] }, p))).toEqual([true, true, false]);
  });
});

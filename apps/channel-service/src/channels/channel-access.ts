import { NotFoundException } from '@nestjs/common';
import { isAdmin, Principal } from '../auth/principal';

/**
 * THE channel access rule (DESIGN §6), defined once for every path that reads or writes a
 * channel: a channel without members is public; a channel with members is readable and writable
 * by those members and the admin only; anyone else gets 404 (`channelNotFound`), not 403, so a
 * private channel's existence never leaks.
 *
 * Each clause below is written once, in process (`test`) and in SQL (`sql`) side by side;
 * `canAccess` and `readableSql` are both the OR of the same clauses.
 * test/channel-access.e2e-spec.ts evaluates both on the same cases in Postgres and compares.
 *
 * In process:  `canAccess(channel, principal)` (after loading a channel by name).
 * In SQL:      `readableSql('c.members', { name: '$2', admin: '$3' })` in a WHERE, with the
 *              caller's `accessParams(principal)` bound to those parameters.
 */

/** Who is asking, as the rule sees it. */
export interface Viewer {
  name: string;
  admin: boolean;
}

/** The same as SQL expressions, usually parameter placeholders (`{ name: '$2', admin: '$3' }`). */
export interface SqlViewer {
  name: string;
  admin: string;
}

interface Clause {
  test: (members: readonly string[] | null, who: Viewer) => boolean;
  sql: (members: string, who: SqlViewer) => string;
}

const ADMIN_CLAUSE = {
  test: (_members, who) => who.admin,
  sql: (_members, who) => who.admin,
} satisfies Clause;

const PUBLIC_CLAUSE = {
  test: (members) => !members || members.length === 0,
  sql: (members) => `${members} IS NULL OR cardinality(${members}) = 0`,
} satisfies Clause;

const MEMBER_CLAUSE = {
  test: (members, who) => !!members && members.includes(who.name),
  sql: (members, who) => `${who.name} = ANY(${members})`,
} satisfies Clause;

/** Readable: any clause holds. */
const READABLE: readonly Clause[] = [ADMIN_CLAUSE, PUBLIC_CLAUSE, MEMBER_CLAUSE];

/** The viewer a principal is; bind `name` and `admin` to the placeholders given to `readableSql`. */
export function accessParams(principal: Principal): Viewer {
  return { name: principal.name, admin: isAdmin(principal) };
}

/** May `principal` read (and post to) `channel`? */
export function canAccess(channel: { members: string[] | null }, principal: Principal): boolean {
  const who = accessParams(principal);
  return READABLE.some((clause) => clause.test(channel.members, who));
}

/** The rule as a boolean SQL expression (parenthesised), for a WHERE on the channels table. */
export function readableSql(members: string, who: SqlViewer): string {
  return `(${READABLE.map((clause) => `(${clause.sql(members, who)})`).join(' OR ')})`;
}

/** "The channel is public" as a boolean SQL expression (parenthesised). */
export function publicChannelSql(members: string): string {
  return `(${PUBLIC_CLAUSE.sql(members)})`;
}

/** What a caller who may not see a channel gets: the same as for one that does not exist. */
export function channelNotFound(name: string): NotFoundException {
  return new NotFoundException(`Channel '${name}' not found`);
}

import { isAdmin, Principal } from '../auth/principal';

/** A private channel (with members) is visible to its members and the admin only. */
export function canAccess(channel: { members: string[] | null }, principal: Principal): boolean {
  if (!channel.members || channel.members.length === 0) return true;
  return isAdmin(principal) || channel.members.includes(principal.name);
}

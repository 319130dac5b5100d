import { ForbiddenException } from '@nestjs/common';
import { isAdmin, Principal } from '../auth/principal';
import { Channel } from '../channels/channel.entity';

/** The channel's creator or the admin: who may rebuild or delete a channel (DESIGN §10). */
export function assertCreatorOrAdmin(channel: Channel, by: Principal, what: string): void {
  if (isAdmin(by) || channel.createdBy === by.name) return;
  throw new ForbiddenException(`Only the channel's creator or the admin can ${what} channel '${channel.name}'`);
}

/** The sender, the channel's creator or the admin: who may redact a message. */
export function assertMayRedact(channel: Channel, sender: string, by: Principal): void {
  if (isAdmin(by) || channel.createdBy === by.name || sender === by.name) return;
  throw new ForbiddenException(`Only the sender, the channel's creator or the admin can redact a message of channel '${channel.name}'`);
}

import { ConflictException, ForbiddenException, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { AuditAction, AuditLog } from '../audit/audit-log.repository';
import { isAdmin, Principal } from '../auth/principal';
import { Database } from '../database/database';
import { Channel } from './channel.entity';
import { ChannelReconfiguredEvent } from './channel-reconfigured.event';
import { ChannelsRepository } from './channels.repository';
import { ChannelsService } from './channels.service';

/** What a write into an archived channel gets: a 409 naming the state (REST, batch and MCP alike). */
export function channelArchived(name: string): ConflictException {
  return new ConflictException(`channel '${name}' is archived (read-only); unarchive it to post`);
}

/**
 * Archive and unarchive (DESIGN §10): the creator or the admin. An archived channel is read-only,
 * runs no summary job and is left out of the default channel list. Each change is one
 * transaction with its audit row; asking for the state the channel is already in changes nothing
 * and records nothing.
 */
@Injectable()
export class ChannelArchiveService {
  constructor(
    private readonly db: Database,
    private readonly channels: ChannelsService,
    private readonly repository: ChannelsRepository,
    private readonly audit: AuditLog,
    private readonly events: EventEmitter2,
  ) {}

  async setArchived(name: string, archived: boolean, by: Principal): Promise<Channel> {
    const current = await this.channels.get(name, by); // 404 when missing or private
    if (!isAdmin(by) && by.name !== current.createdBy) {
      throw new ForbiddenException(`Only the channel creator or the admin can ${archived ? 'archive' : 'unarchive'} channel '${name}'`);
    }
    const changed = await this.db.transaction(async (tx) => {
      const channel = await this.repository.setArchived(current.id, archived, tx);
      if (channel) await this.audit.record({ actor: by.name, action: archived ? AuditAction.Archive : AuditAction.Unarchive, channel: name }, tx);
      return channel;
    });
    // Unarchived: a backlog left while it was archived may be due now.
    if (changed && !archived) this.events.emit(ChannelReconfiguredEvent.NAME, new ChannelReconfiguredEvent(changed.id));
    return changed ?? (await this.repository.findById(current.id)) ?? current;
  }
}

import { BadRequestException, ConflictException, ForbiddenException, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { SummariserRegistry } from '@qhorus/blocks-channel-summary';
import { isAdmin, Principal } from '../auth/principal';
import { isUniqueViolation } from '../common/database-errors';
import { ChannelsConfig } from '../config/slices/channels-config';
import { CostConfig } from '../config/slices/cost-config';
import { ALL_TRIGGER_FIELDS, assertSummariserChoiceAllowed } from '../cost/summariser-cost-policy';
import { Channel, ChannelRetention } from './channel.entity';
import { RetentionDto } from './dto/retention.dto';
import { accessParams, canAccess, channelNotFound } from './channel-access';
import { ChannelChanges, ChannelForReader, ChannelsRepository } from './channels.repository';
import { ReadCursorsRepository } from './read-cursors.repository';
import { unreadCount } from './channel.view';
import { ChannelReconfiguredEvent } from './channel-reconfigured.event';
import { CreateChannelDto } from './dto/create-channel.dto';
import { UpdateChannelDto } from './dto/update-channel.dto';

const TRIGGER_FIELDS = [...ALL_TRIGGER_FIELDS];

@Injectable()
export class ChannelsService {
  constructor(
    private readonly channels: ChannelsRepository,
    private readonly cursors: ReadCursorsRepository,
    private readonly summarisers: SummariserRegistry,
    private readonly config: ChannelsConfig,
    private readonly cost: CostConfig,
    private readonly events: EventEmitter2,
  ) {}

  async create(dto: CreateChannelDto, by: Principal): Promise<{ channel: Channel; warnings: string[] }> {
    // The registry's default (normally 'heuristic'), stored by name so a later change of the default does not move existing channels.
    const summariser = dto.summariser ?? this.summarisers.defaultName;
    this.assertKnownSummariser(summariser);
    const summaryThreshold = dto.summaryThreshold ?? this.config.defaultSummaryThreshold;
    assertSummariserChoiceAllowed(
      {
        summariser,
        summaryThreshold,
        summaryThresholdTokens: dto.summaryThresholdTokens ?? null,
        updateAfterSeconds: dto.updateAfterSeconds ?? null,
        choosesSummariser: true,
        sets: ALL_TRIGGER_FIELDS,
        by,
        creator: by.name,
      },
      this.cost,
    );
    const quota = isAdmin(by) ? null : this.config.maxChannelsPerAgent;
    try {
      const channel = await this.channels.insert(
        {
          name: dto.name,
          description: dto.description ?? null,
          summaryThreshold,
          summaryThresholdTokens: dto.summaryThresholdTokens ?? null,
          updateAfterSeconds: dto.updateAfterSeconds ?? null,
          summariser,
          members: normaliseMembers(dto.members, by),
          createdBy: by.name,
          retention: mergeRetention({ maxAgeDays: this.config.defaultRetentionMaxAgeDays, maxMessages: null }, dto.retention),
        },
        quota,
      );
      if (!channel) {
        throw new ForbiddenException(`'${by.name}' has created ${quota} channels, the quota per agent (QHORUS_MAX_CHANNELS_PER_AGENT=${quota})`);
      }
      return { channel, warnings: this.warningsFor(summariser) };
    } catch (e) {
      if (isUniqueViolation(e)) throw new ConflictException(`Channel name '${dto.name}' is already taken`);
      throw e;
    }
  }

  /** The channel if the caller may see it; 404 otherwise, so a private channel's existence never leaks. */
  async get(name: string, by: Principal): Promise<Channel> {
    const channel = await this.channels.findByName(name);
    if (!channel || !canAccess(channel, by)) throw channelNotFound(name);
    return channel;
  }

  list(by: Principal): Promise<Channel[]> {
    return this.channels.listVisible(accessParams(by));
  }

  /** As `get`, with the caller's read cursor. */
  async getForReader(name: string, by: Principal): Promise<ChannelForReader> {
    const found = await this.channels.findByNameWithCursor(name, by.name);
    if (!found || !canAccess(found.channel, by)) throw channelNotFound(name);
    return found;
  }

  /** As `list`, each with the caller's read cursor; archived channels only with `includeArchived`. */
  listForReader(by: Principal, includeArchived = false): Promise<ChannelForReader[]> {
    return this.channels.listVisibleWithCursors(accessParams(by), includeArchived);
  }

  /** The caller's read cursor on the channel (0 when nothing is marked read). */
  readCursor(channel: Channel, by: Principal): Promise<number> {
    return this.cursors.find(channel.id, by.name);
  }

  /**
   * Moves the caller's read cursor to `throughSeq`, never backwards (a lower value returns the
   * current cursor); past the channel's lastSeq is a 400 and writes nothing.
   */
  async markRead(name: string, throughSeq: number, by: Principal): Promise<{ channel: string; readThroughSeq: number; lastSeq: number; unread: number }> {
    const channel = await this.get(name, by);
    const { readThroughSeq, lastSeq } = await this.cursors.advance(channel.id, by.name, throughSeq);
    if (readThroughSeq === null) {
      const problem = `must be at most the channel's lastSeq (${lastSeq})`;
      throw new BadRequestException({ message: `Invalid request: throughSeq ${throughSeq} ${problem}`, details: [{ field: 'throughSeq', problems: [problem] }] });
    }
    return { channel: channel.name, readThroughSeq, lastSeq, unread: unreadCount(lastSeq, readThroughSeq) };
  }

  async update(name: string, dto: UpdateChannelDto, by: Principal): Promise<{ channel: Channel; warnings: string[] }> {
    const current = await this.get(name, by);
    if (dto.summariser !== undefined) this.assertKnownSummariser(dto.summariser);
    assertSummariserChoiceAllowed(
      {
        summariser: dto.summariser ?? current.summariser,
        summaryThreshold: dto.summaryThreshold ?? current.summaryThreshold,
        summaryThresholdTokens: dto.summaryThresholdTokens !== undefined ? dto.summaryThresholdTokens : current.summaryThresholdTokens,
        updateAfterSeconds: dto.updateAfterSeconds !== undefined ? dto.updateAfterSeconds : current.updateAfterSeconds,
        choosesSummariser: dto.summariser !== undefined,
        sets: new Set(TRIGGER_FIELDS.filter((field) => dto[field] !== undefined)),
        by,
        creator: current.createdBy,
      },
      this.cost,
    );
    if (dto.members !== undefined && !isAdmin(by) && by.name !== current.createdBy) {
      throw new ForbiddenException('Only the channel creator or the admin can change members');
    }
    if (dto.retention !== undefined && !isAdmin(by) && by.name !== current.createdBy) {
      throw new ForbiddenException('Only the channel creator or the admin can change retention');
    }
    const changes: ChannelChanges = {};
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.summaryThreshold !== undefined) changes.summaryThreshold = dto.summaryThreshold;
    if (dto.summaryThresholdTokens !== undefined) changes.summaryThresholdTokens = dto.summaryThresholdTokens;
    if (dto.updateAfterSeconds !== undefined) changes.updateAfterSeconds = dto.updateAfterSeconds;
    if (dto.summariser !== undefined) changes.summariser = dto.summariser;
    if (dto.members !== undefined) changes.members = dto.members === null ? null : normaliseMembers(dto.members, by);
    if (dto.retention !== undefined) {
      const retention = mergeRetention(current.retention, dto.retention);
      changes.retentionMaxAgeDays = retention.maxAgeDays;
      changes.retentionMaxMessages = retention.maxMessages;
    }
    const channel = (await this.channels.update(current.id, changes)) ?? current;
    this.events.emit(ChannelReconfiguredEvent.NAME, new ChannelReconfiguredEvent(channel.id));
    return { channel, warnings: dto.summariser ? this.warningsFor(dto.summariser) : [] };
  }

  private assertKnownSummariser(name: string): void {
    if (!this.summarisers.has(name)) {
      throw new BadRequestException({
        message: `Unknown summariser '${name}'; known summarisers: ${this.summarisers.names().join(', ')}`,
        details: [{ field: 'summariser', problems: [`must be one of: ${this.summarisers.names().join(', ')}`] }],
      });
    }
  }

  private warningsFor(summariser: string): string[] {
    const availability = this.summarisers.availability(summariser);
    return availability.available ? [] : [`Summariser '${summariser}' is unavailable: ${availability.reason}`];
  }
}

/** A `retention` from a request over the current one: null clears both bounds, a field left out keeps its value. */
function mergeRetention(current: ChannelRetention, given: RetentionDto | null | undefined): ChannelRetention {
  if (given === undefined) return current;
  if (given === null) return { maxAgeDays: null, maxMessages: null };
  return {
    maxAgeDays: given.maxAgeDays === undefined ? current.maxAgeDays : given.maxAgeDays,
    maxMessages: given.maxMessages === undefined ? current.maxMessages : given.maxMessages,
  };
}

/** A private channel always includes its creator (unless the admin creates it), without duplicates. */
function normaliseMembers(members: string[] | undefined, by: Principal): string[] | null {
  if (!members || members.length === 0) return null;
  const all = isAdmin(by) ? members : [...members, by.name];
  return [...new Set(all)];
}

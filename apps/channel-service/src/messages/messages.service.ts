import { BadRequestException, ConflictException, ForbiddenException, Injectable, PayloadTooLargeException } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DEFAULT_TOPIC, Message, MessageType, REQUEST_TYPES } from '@qhorus/api';
import { createHash, randomUUID } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json';
import { idempotencyKeyProblem } from '../common/idempotency-key';
import { ADMIN_NAME, Principal } from '../auth/principal';
import { accessParams } from '../channels/channel-access';
import { isUniqueViolation } from '../common/database-errors';
import { fieldProblem, validationMessage } from '../common/validation.pipe';
import { assertConfiguredLimits } from '../common/configured-limit';
import { MessagesConfig } from '../config/slices/messages-config';
import { RequestLimitsConfig } from '../config/slices/request-limits-config';
import { ChannelsService } from '../channels/channels.service';
import { channelArchived } from '../channels/channel-archive.service';
import { PostBatchDto } from './dto/post-batch.dto';
import { DEFAULT_MESSAGE_TYPE, PostMessageDto } from './dto/post-message.dto';
import { ListMessagesQuery } from './dto/list-messages.query';
import { assertMessageWithinLimits } from './message-limits';
import { assertWaitWithin, LongPollWaits, PostedMessageData } from '../message-store/long-poll-waits';
import { MessageRow, toMessage } from '../message-store/message.entity';
import { FilterableMessage, matchesFilter, MessageFilter } from './message-filter';
import { MessagePostedEvent } from '../message-store/message-posted.event';
import { MessagePage, MessagesRepository, NewMessage, RepliedThreads } from './messages.repository';
import { tokenEstimateBeforeSeq } from './message-token-estimate';

const unregisteredTarget = (name: string): string => `target '${name}' names no registered agent (register it first, or check the spelling)`;
/** Tries of a batch whose replies into itself were resolved against a lastSeq another post moved (then a 409). */
const IN_BATCH_REPLY_ATTEMPTS = 3;

export interface BatchOutcome {
  messages: Message[];
  /** True when an Idempotency-Key retry returned the original batch. */
  replayed: boolean;
}

/** Message i of a batch posted with Idempotency-Key `key`. */
const batchKey = (key: string, i: number): string => `${key}:${i}`;

export interface PostOutcome {
  message: Message;
  /** True when an Idempotency-Key retry returned the original message. */
  replayed: boolean;
}

@Injectable()
export class MessagesService {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly channels: ChannelsService,
    private readonly config: MessagesConfig,
    private readonly limits: RequestLimitsConfig,
    private readonly events: EventEmitter2,
    private readonly waits: LongPollWaits,
  ) {}

  async post(channelName: string, dto: PostMessageDto, by: Principal, idempotencyKey?: string): Promise<PostOutcome> {
    this.checkIdempotencyKey(idempotencyKey);
    await this.assertTargetsRegistered([dto], false);
    const requestHash = idempotencyKey ? hashRequest(dto) : null;
    const threads = joinsRepliedThread(dto) ? (await this.threadsRepliedTo(channelName, by, [dto])).correlationIds : NO_THREADS;
    const message = this.toNewMessage(dto, by, threads, idempotencyKey ?? null, requestHash);
    if (idempotencyKey) {
      const replay = await this.replay(channelName, by, idempotencyKey, requestHash!);
      if (replay) return replay;
    }
    let inserted;
    try {
      inserted = await this.messages.insert(channelName, accessParams(by), message);
    } catch (e) {
      // A concurrent retry with the same key won the race: answer as a replay.
      if (idempotencyKey && isUniqueViolation(e, 'messages_idempotency_unique')) {
        const replay = await this.replay(channelName, by, idempotencyKey, requestHash!);
        if (replay) return replay;
      }
      throw e;
    }
    if (!inserted) return this.explainRefusal(channelName, [dto], by);
    const posted = toMessage(inserted.row, channelName);
    const tokens = { backlog: inserted.backlogTokens, added: inserted.messageTokens, threshold: inserted.summaryThresholdTokens };
    this.events.emit(
      MessagePostedEvent.NAME,
      new MessagePostedEvent({ channelId: inserted.channelId, message: posted, backlog: inserted.backlog, summaryThreshold: inserted.summaryThreshold, tokens, closedThread: inserted.closedThread, announced: inserted.announced }),
    );
    return { message: posted, replayed: false };
  }

  /**
   * Posts a batch in one statement: consecutive seqs, all or nothing. With an Idempotency-Key,
   * message i is keyed `<key>:<i>`, so a retried batch returns the original messages.
   */
  async postBatch(channelName: string, dto: PostBatchDto, by: Principal, idempotencyKey?: string): Promise<BatchOutcome> {
    const max = this.config.batchMaxMessages;
    if (dto.messages.length > max) {
      throw new PayloadTooLargeException(`the batch has ${dto.messages.length} messages; the limit is ${max} (QHORUS_BATCH_MAX_MESSAGES)`);
    }
    // The key itself (an empty one is no key), then the longest per-message key it makes.
    this.checkIdempotencyKey(idempotencyKey);
    this.checkIdempotencyKey(idempotencyKey === undefined ? undefined : batchKey(idempotencyKey, dto.messages.length - 1));
    await this.assertTargetsRegistered(dto.messages, true);
    const keys = idempotencyKey ? dto.messages.map((_, i) => batchKey(idempotencyKey, i)) : null;
    const joinsThreads = dto.messages.some(joinsRepliedThread);
    const nextKey = idempotencyKey ? batchKey(idempotencyKey, dto.messages.length) : null;
    let inserted;
    let resolvedAtLastSeq: number | null = null;
    for (let attempt = 1; ; attempt++) {
      const replied = joinsThreads ? await this.threadsRepliedTo(channelName, by, dto.messages) : null;
      let batch: NewMessage[];
      ({ batch, resolvedAtLastSeq } = this.toNewBatch(dto.messages, by, replied, keys));
      if (nextKey && attempt === 1) {
        const replay = await this.replayBatch(channelName, by, batch, nextKey);
        if (replay) return replay;
      }
      try {
        inserted = await this.messages.insertBatch(channelName, accessParams(by), batch, resolvedAtLastSeq);
      } catch (e) {
        if (nextKey && isUniqueViolation(e, 'messages_idempotency_unique')) {
          const replay = await this.replayBatch(channelName, by, batch, nextKey);
          if (replay) return replay;
        }
        throw e;
      }
      // Another post came between the lookup and the insert: the replies into the batch name other seqs now.
      if (inserted || resolvedAtLastSeq === null || attempt === IN_BATCH_REPLY_ATTEMPTS) break;
    }
    if (!inserted) return this.explainRefusal(channelName, dto.messages, by, resolvedAtLastSeq);
    const posted = inserted.rows.map((r) => toMessage(r, channelName));
    const lastSeq = posted[posted.length - 1].seq;
    posted.forEach((message, i) => {
      const row = inserted.rows[i];
      const backlog = inserted.backlog - (lastSeq - message.seq);
      const tokens = { backlog: inserted.backlogTokens - (inserted.tokenTotal - Number(row.tokens_through)), added: row.token_estimate, threshold: inserted.summaryThresholdTokens };
      const event = new MessagePostedEvent({
        channelId: inserted.channelId,
        message,
        backlog,
        summaryThreshold: inserted.summaryThreshold,
        tokens,
        endsBatch: i === posted.length - 1,
        closedThread: row.closed_thread === true,
        announced: row.announced,
      });
      this.events.emit(MessagePostedEvent.NAME, event);
    });
    return { messages: posted, replayed: false };
  }


  /**
   * One page of the channel's messages, ascending. With `waitMs` (a long poll) and nothing
   * matching after `afterSeq` yet, it waits for the first matching post (`signal`: the caller left).
   * With where the page started (`afterSeq`: after the read cursor with `unreadOnly`)
   * and where the next page starts (`nextAfterSeq`). A forward page that is not full has seen
   * everything up to the channel's last seq as read first (within `beforeSeq`): it continues from
   * there, so messages it hides (EVENTs, filtered out) are not read again and the cursor can reach
   * `lastSeq`. A full page continues after its last message.
   */
  async readPage(
    channelName: string,
    query: ListMessagesQuery,
    by: Principal,
    signal?: AbortSignal,
  ): Promise<{ messages: Message[]; afterSeq: number; nextAfterSeq: number; firstSeq: number }> {
    const waitMs = query.waitMs ?? 0;
    this.assertWaitable(query, waitMs);
    const channel = await this.channels.get(channelName, by);
    if (query.afterSeq !== undefined && query.afterSeq > channel.lastSeq) throw afterSeqAheadOfChannel(query.afterSeq, channel.lastSeq);
    const filter = toFilter(query);
    let afterSeq = query.afterSeq ?? 0;
    if (query.unreadOnly) afterSeq = Math.max(afterSeq, await this.channels.readCursor(channel, by));
    // Retention removed everything before firstSeq: an afterSeq below it reads from there.
    afterSeq = Math.max(afterSeq, channel.firstSeq - 1);
    const page: MessagePage = {
      afterSeq,
      beforeSeq: query.beforeSeq ?? null,
      limit: query.tail ?? query.limit ?? this.config.pageLimitDefault,
      // Backwards from beforeSeq (or the end) for `tail`, or for `beforeSeq` alone.
      newest: query.tail !== undefined || (query.beforeSeq !== undefined && query.afterSeq === undefined && !query.unreadOnly),
    };
    const read = () => this.messages.page(channel.id, page, filter);
    const wakes = (m: PostedMessageData) => Number(m.seq) > afterSeq && matchesFilter(m as unknown as FilterableMessage, filter);
    // After a sleep the caller's access is checked again: a member removed meanwhile reads nothing more.
    const access = { by, recheck: () => this.channels.get(channelName, by) };
    const rows = waitMs > 0 ? await this.waits.wait(access, channel.id, waitMs, read, wakes, signal) : await read();
    const messages = rows.map((r: MessageRow) => toMessage(r, channel.name));
    const lastShown = messages.length > 0 ? messages[messages.length - 1].seq : afterSeq;
    const seenThrough = page.beforeSeq === null ? channel.lastSeq : Math.min(channel.lastSeq, page.beforeSeq - 1);
    const complete = !page.newest && messages.length < page.limit;
    return { messages, afterSeq, nextAfterSeq: complete ? Math.max(lastShown, seenThrough) : lastShown, firstSeq: channel.firstSeq };
  }

  /**
   * A `target` must name a registered agent (or the admin): a typo would otherwise be stored and
   * reach nobody. A 400 naming the field (`messages.<i>.target` in a batch) and the name.
   */
  private async assertTargetsRegistered(dtos: readonly PostMessageDto[], inBatch: boolean): Promise<void> {
    const targets = [...new Set(dtos.map((d) => d.target).filter((t): t is string => typeof t === 'string' && t !== ADMIN_NAME))];
    if (targets.length === 0) return;
    const unknown = new Set(await this.messages.unregisteredAgents(targets));
    if (unknown.size === 0) return;
    const details = dtos.flatMap((d, i) =>
      d.target !== undefined && unknown.has(d.target) ? [{ field: inBatch ? `messages.${i}.target` : 'target', problems: [unregisteredTarget(d.target)] }] : [],
    );
    throw new BadRequestException({ message: validationMessage(details), details });
  }

  /** The long-poll bounds, checked before anything is read. */
  private assertWaitable(query: ListMessagesQuery, waitMs: number): void {
    assertWaitWithin(waitMs, this.config.longPollMaxMs);
    assertConfiguredLimits(query, this.limits);
    if (waitMs > 0 && (query.tail !== undefined || query.beforeSeq !== undefined)) {
      const field = query.tail !== undefined ? 'tail' : 'beforeSeq';
      throw fieldProblem(field, 'cannot be combined with waitMs: a long poll waits for messages after afterSeq');
    }
  }

  private async replay(channelName: string, by: Principal, key: string, requestHash: string): Promise<PostOutcome | null> {
    const existing = await this.messages.findByIdempotencyKey(channelName, accessParams(by), key);
    if (!existing) return null;
    // A redacted message's request hash is purged with its content (a hash of a secret confirms a
    // guess of it): a retry can no longer be compared, so it gets the tombstone back.
    if (existing.redacted_at === null && existing.request_hash !== requestHash) {
      throw new ConflictException(`Idempotency-Key '${key}' was already used with a different request body`);
    }
    return { message: toMessage(existing, channelName), replayed: true };
  }

  /**
   * A batch retried with its Idempotency-Key: the original messages, when any of them exists.
   * `nextKey` (message n's key, one past this batch) tells a shorter batch from the original:
   * a prefix of it is a different batch too.
   */
  private async replayBatch(channelName: string, by: Principal, batch: readonly NewMessage[], nextKey: string): Promise<BatchOutcome | null> {
    const existing = await this.messages.findByIdempotencyKeys(channelName, accessParams(by), [...batch.map((m) => m.idempotencyKey!), nextKey]);
    if (existing.length === 0) return null;
    const sameBatch =
      existing.length === batch.length && existing.every((row, i) => row.idempotency_key === batch[i].idempotencyKey && (row.request_hash === batch[i].requestHash || row.redacted_at !== null));
    if (!sameBatch) throw new ConflictException(`Idempotency-Key '${batch[0].idempotencyKey}' was already used with a different batch`);
    return { messages: existing.map((row) => toMessage(row, channelName)), replayed: true };
  }

  /**
   * Nothing was written: either the channel is not visible to the caller, or it is archived, or the channel moved on
   * from the lastSeq a batch's replies into itself were resolved against (`resolvedAtLastSeq`,
   * after every try), or an inReplyTo is ahead (of the channel, or of its own place in the batch:
   * message i may answer seq < lastSeq + i + 1).
   */
  private async explainRefusal(channelName: string, dtos: readonly PostMessageDto[], by: Principal, resolvedAtLastSeq: number | null = null): Promise<never> {
    const channel = await this.channels.get(channelName, by); // 404 when missing or private
    if (channel.archivedAt !== null) throw channelArchived(channel.name);
    if (resolvedAtLastSeq !== null && channel.lastSeq !== resolvedAtLastSeq) {
      throw new ConflictException(`channel '${channelName}' kept moving while the batch's replies into itself were resolved (${IN_BATCH_REPLY_ATTEMPTS} tries); retry`);
    }
    const index = Math.max(0, dtos.findIndex((d, i) => d.inReplyTo !== undefined && d.inReplyTo > channel.lastSeq + i));
    const field = dtos.length === 1 ? 'inReplyTo' : `messages.${index}.inReplyTo`;
    throw new BadRequestException({
      message: `${field} ${dtos[index].inReplyTo} refers to no earlier message in channel '${channel.name}' (last seq ${channel.lastSeq})`,
      details: [{ field, problems: ['must be the seq of an existing message'] }],
    });
  }

  private checkIdempotencyKey(key: string | undefined): void {
    const problem = key === undefined ? null : idempotencyKeyProblem(key);
    if (problem) throw new BadRequestException(`Idempotency-Key ${problem}`);
  }

  /**
   * A reply by `inReplyTo` alone joins the thread of the message it answers (DESIGN §2: a thread is
   * one correlation id), so the thread index, the inbox, thread summaries and the summary's state
   * all see it in that thread. Messages already in the channel are looked up (one query, which
   * also reads the lastSeq; callers skip it, and its await, when no message needs it); a batch's
   * replies into itself are resolved by toNewBatch. QUERY and COMMAND are left out: they open a thread of their own.
   */
  private async threadsRepliedTo(channelName: string, by: Principal, dtos: readonly PostMessageDto[]): Promise<RepliedThreads> {
    const seqs = new Set(dtos.filter(joinsRepliedThread).map((d) => d.inReplyTo!));
    return this.messages.correlationIdsAt(channelName, accessParams(by), [...seqs]);
  }

  /**
   * A batch's rows. A reply by `inReplyTo` alone to an earlier message of the same batch (a seq
   * past the lastSeq read with `replied`) joins that message's thread; the rows then hold only if
   * the channel is still at that lastSeq when inserted (`resolvedAtLastSeq`, checked by the insert).
   */
  private toNewBatch(
    dtos: readonly PostMessageDto[],
    by: Principal,
    replied: RepliedThreads | null,
    keys: readonly string[] | null,
  ): { batch: NewMessage[]; resolvedAtLastSeq: number | null } {
    const base = replied?.lastSeq ?? null;
    const threads = new Map(replied?.correlationIds);
    let intoItself = false;
    const batch = dtos.map((m, i) => {
      if (base !== null && joinsRepliedThread(m) && m.inReplyTo! > base) intoItself = true;
      const message = this.toNewMessage(m, by, threads, keys?.[i] ?? null, keys ? hashRequest(m) : null, `messages.${i}`);
      if (base !== null && message.correlationId !== null) threads.set(base + i + 1, message.correlationId);
      return message;
    });
    return { batch, resolvedAtLastSeq: intoItself ? base : null };
  }

  /** The row to insert for one posted message; `field` names it in errors (a batch's `messages.i`). */
  private toNewMessage(
    dto: PostMessageDto,
    by: Principal,
    threadsRepliedTo: ReadonlyMap<number, string>,
    idempotencyKey: string | null,
    requestHash: string | null,
    field?: string,
  ): NewMessage {
    const where = field ? `${field}: ` : '';
    if (dto.sender != null && dto.sender !== by.name) {
      throw new ForbiddenException(`${where}sender '${dto.sender}' is not the authenticated agent '${by.name}'`);
    }
    const content = dto.content ?? '';
    assertMessageWithinLimits(dto, this.config, field);
    const type = (dto.type ?? DEFAULT_MESSAGE_TYPE) as MessageType;
    const message: NewMessage = {
      type,
      sender: by.name,
      content,
      topic: dto.topic ?? DEFAULT_TOPIC,
      correlationId: dto.correlationId ?? (REQUEST_TYPES.has(type) ? randomUUID() : (threadsRepliedTo.get(dto.inReplyTo!) ?? null)),
      inReplyTo: dto.inReplyTo ?? null,
      target: dto.target ?? null,
      metadata: dto.metadata ?? null,
      idempotencyKey,
      requestHash,
      tokens: null,
    };
    // Its projection cost, computed here so the insert statement stores it: no extra round trip.
    // Set on the object rather than spread into a copy (a 10-field spread costs ~1 µs a message).
    message.tokens = tokenEstimateBeforeSeq(message);
    return message;
  }
}

const NO_THREADS: ReadonlyMap<number, string> = new Map();

/** A message that takes the correlation id of the message it replies to (see threadsRepliedTo). */
function joinsRepliedThread(d: PostMessageDto): boolean {
  return d.inReplyTo != null && d.correlationId == null && !REQUEST_TYPES.has((d.type ?? DEFAULT_MESSAGE_TYPE) as MessageType);
}

function toFilter(q: ListMessagesQuery): MessageFilter {
  return {
    types: q.type ? [...new Set(q.type as MessageType[])] : null,
    includeEvents: q.includeEvents ?? false,
    topic: q.topic ?? null,
    sender: q.sender ?? null,
    correlationId: q.correlationId ?? null,
    target: q.target ?? null,
  };
}

/** A stable hash of the request body, so a retry can be told from a different request. */
function hashRequest(dto: PostMessageDto): string {
  return createHash('sha256').update(canonicalJson(dto)).digest('hex');
}

/**
 * An afterSeq past the channel's last seq names no message anyone has read: a page from there,
 * or a wait, would silently skip the messages up to it once they are posted.
 */
function afterSeqAheadOfChannel(afterSeq: number, lastSeq: number): BadRequestException {
  return fieldProblem('afterSeq', `must not be past the channel's last seq (${lastSeq}): after ${afterSeq}, the messages up to it would be skipped`);
}

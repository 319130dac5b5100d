import { applyThreadRule, Message, MessageType, REQUEST_TYPES, shownContent, ThreadState } from '@qhorus/api';
import { isDecision } from './decision-rule';
import { ClosureOutcome, OpenRecord, reassigned, ThreadType } from './state-records';
import { ChannelState } from './channel-state';
import { threadKey } from './open-thread-set';

/**
 * Folds a batch of messages into the channel state in a single pass.
 *
 * Hot path (the default summariser must sustain ≥ 200k messages/s on one core): per message only
 * Map lookups, counter bumps and the allocation of a small record when something is worth
 * keeping. No regex, no JSON, no excerpting or date formatting here — that happens once per call,
 * and only for the few records that survive the bounds (see bound-channel-state.ts).
 *
 * Threads follow DESIGN §2 through `applyThreadRule` (the same function the thread index and the
 * inbox use). A message belongs to the thread its correlation id names, and to none without one,
 * as in the thread index (the service gives a reply by `inReplyTo` alone the correlation id of
 * the message it answers, so it arrives here in that thread). A closed thread
 * and an unknown one behave alike (only QUERY/COMMAND/HANDOFF open either), so only open threads
 * are kept. On top of the rules:
 * - a closing or a handoff is listed among recent closures; an unmatched DONE/DECLINE/FAILURE or
 *   HANDOFF is still kept as a recent outcome; an unmatched RESPONSE is conversation;
 * - a QUERY/COMMAND without a correlation id (the service always gives one) is a thread of its own;
 * - EVENT counts toward the period and `eventCount` only: it is telemetry, not conversation.
 */
export class StateAccumulator {
  constructor(private readonly state: ChannelState) {}

  addAll(messages: readonly Message[]): void {
    for (let i = 0; i < messages.length; i++) this.add(messages[i]);
  }

  private add(m: Message): void {
    const s = this.state;
    this.extendPeriod(toEpochMs(m.createdAt));
    if (m.type === MessageType.EVENT) {
      s.eventCount++;
      return;
    }
    s.messageCount++;
    s.participantCounts.set(m.sender, (s.participantCounts.get(m.sender) ?? 0) + 1);
    // A tombstone's topic is gone: it counts for no topic.
    if (!m.redacted) s.topicCounts.set(m.topic, (s.topicCounts.get(m.topic) ?? 0) + 1);
    if (m.type === MessageType.STATUS) s.statuses.set(m.sender, { seq: m.seq, topic: m.topic, at: m.createdAt, text: shownContent(m) });
    const answersCommand = this.applyThread(m);
    if (isDecision(m, answersCommand)) {
      s.decisions.push({ seq: m.seq, sender: m.sender, topic: m.topic, at: m.createdAt, text: shownContent(m) });
    }
  }

  private extendPeriod(t: number): void {
    if (Number.isNaN(t)) return;
    const s = this.state;
    if (!(t >= s.periodStartMs)) s.periodStartMs = t; // also taken while the start is still NaN
    if (!(t <= s.periodEndMs)) s.periodEndMs = t;
  }

  /** Applies the thread rules to `m`'s thread. Returns whether `m` is a RESPONSE in an open COMMAND's thread. */
  private applyThread(m: Message): boolean {
    const s = this.state;
    const key = this.threadOf(m);
    const record = key === undefined ? undefined : s.open.get(key);
    if (key === undefined || record === undefined) {
      const opened = key === undefined ? null : applyThreadRule(null, m);
      if (opened !== null) this.open(key as string, m, opened);
      else if (UNMATCHED_OUTCOMES.has(m.type)) this.recordClosure(m, m.type as ClosureOutcome, null);
      return false;
    }
    const before: ThreadState = { type: record.type, status: 'open', owner: record.target };
    const after = applyThreadRule(before, m) as ThreadState; // an open thread never becomes null
    if (after === before) return m.type === MessageType.RESPONSE && record.type === MessageType.COMMAND;
    if (after.status === 'open') {
      // A handoff: the thread stays open, owed by the target. reassign keeps its (seq-order) position.
      s.open.reassign(key, reassigned(record, after.owner));
      this.recordClosure(m, MessageType.HANDOFF, record);
      return false;
    }
    s.open.close(key);
    this.recordClosure(m, m.type as ClosureOutcome, record);
    return false;
  }

  /** The key of the thread `m` belongs to, or undefined when it is in none. */
  private threadOf(m: Message): string | undefined {
    if (m.correlationId != null) return m.correlationId;
    return REQUEST_TYPES.has(m.type) ? threadKey(null, m.seq) : undefined;
  }

  private open(key: string, m: Message, thread: ThreadState): void {
    const s = this.state;
    s.open.add(key, {
      correlationId: m.correlationId ?? null,
      type: thread.type as ThreadType,
      sender: m.sender,
      seq: m.seq,
      target: thread.owner,
      topic: m.topic,
      at: m.createdAt,
      text: shownContent(m),
      threadJson: undefined,
      detailJson: undefined,
    });
  }

  private recordClosure(m: Message, outcome: ClosureOutcome, request: OpenRecord | null): void {
    this.state.closures.push({
      outcome,
      correlationId: request ? request.correlationId : (m.correlationId ?? null),
      requestType: request ? request.type : null,
      requester: request ? request.sender : null,
      requestSeq: request ? request.seq : null,
      by: m.sender,
      target: m.target ?? null,
      topic: m.topic,
      seq: m.seq,
      at: m.createdAt,
      text: shownContent(m),
    });
  }
}

/** Outcomes kept among recent closures even when they match no open thread. */
const UNMATCHED_OUTCOMES: ReadonlySet<MessageType> = new Set([MessageType.DONE, MessageType.DECLINE, MessageType.FAILURE, MessageType.HANDOFF]);

/** Reads createdAt as epoch ms; tolerates an ISO string (e.g. a message that went through JSON). */
function toEpochMs(createdAt: Date | string): number {
  return createdAt instanceof Date ? createdAt.getTime() : Date.parse(createdAt);
}

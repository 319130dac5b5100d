import { Message, MessageType } from '@qhorus/api';
import { isDecision } from './decision-rule';
import { DECISIONS_KEEP, RECENT_CLOSURES_KEEP } from './heuristic-limits';
import { ClosureOutcome, OpenRecord, reassigned } from './heuristic-records';
import { HeuristicState, threadKey } from './heuristic-state';

/**
 * Folds a batch of messages into the heuristic state in a single pass.
 *
 * Hot path (the default summariser must sustain ≥ 200k messages/s on one core): per message only
 * Map lookups, counter bumps and the allocation of a small record when something is worth
 * keeping. No regex, no JSON, no excerpting or date formatting here — that happens once per call,
 * and only for the few records that survive the bounds (see bound-heuristic-state.ts).
 *
 * Thread rules:
 * - QUERY/COMMAND opens a thread keyed by its correlation id (a repeated id joins the open thread).
 * - RESPONSE/DONE/DECLINE/FAILURE closes the open thread it names by correlation id, or else the
 *   one whose request seq equals its inReplyTo. Unmatched DONE/DECLINE/FAILURE are still kept as
 *   recent outcomes; an unmatched RESPONSE is conversation and changes nothing.
 * - HANDOFF does not close the request (it is not answered yet): it reassigns the open thread to
 *   the handoff's target and is listed among recent closures as a handoff.
 * - EVENT counts toward the period and `eventCount` only: it is telemetry, not conversation.
 */
export class HeuristicAccumulator {
  constructor(private readonly state: HeuristicState) {}

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
    s.topicCounts.set(m.topic, (s.topicCounts.get(m.topic) ?? 0) + 1);

    let closesCommand = false;
    switch (m.type) {
      case MessageType.QUERY:
      case MessageType.COMMAND:
        this.open(m);
        break;
      case MessageType.RESPONSE:
      case MessageType.DONE:
      case MessageType.DECLINE:
      case MessageType.FAILURE:
        closesCommand = this.close(m);
        break;
      case MessageType.HANDOFF:
        this.handOff(m);
        break;
      case MessageType.STATUS:
        s.statuses.set(m.sender, { seq: m.seq, topic: m.topic, at: m.createdAt, text: m.content });
        break;
    }
    if (isDecision(m, closesCommand)) {
      s.decisions.push({ seq: m.seq, sender: m.sender, topic: m.topic, at: m.createdAt, text: m.content });
      trimToNewest(s.decisions, DECISIONS_KEEP);
    }
  }

  private extendPeriod(t: number): void {
    if (Number.isNaN(t)) return;
    const s = this.state;
    if (!(t >= s.periodStartMs)) s.periodStartMs = t; // also taken while the start is still NaN
    if (!(t <= s.periodEndMs)) s.periodEndMs = t;
  }

  private open(m: Message): void {
    const s = this.state;
    const key = threadKey(m.correlationId ?? null, m.seq);
    if (!s.open.has(key)) {
      s.open.set(key, {
        correlationId: m.correlationId ?? null,
        type: m.type as OpenRecord['type'],
        sender: m.sender,
        seq: m.seq,
        target: m.target ?? null,
        topic: m.topic,
        at: m.createdAt,
        text: m.content,
        threadJson: undefined,
        detailJson: undefined,
      });
    }
    s.openBySeq.set(m.seq, key);
  }

  /** Closes the thread the message answers, if any. Returns whether that thread was a COMMAND. */
  private close(m: Message): boolean {
    const s = this.state;
    const key = this.findOpen(m);
    if (key === undefined) {
      if (m.type !== MessageType.RESPONSE) this.recordClosure(m, m.type as ClosureOutcome, null);
      return false;
    }
    const request = s.open.get(key) as OpenRecord;
    s.open.delete(key);
    s.openBySeq.delete(request.seq);
    this.recordClosure(m, m.type as ClosureOutcome, request);
    return request.type === MessageType.COMMAND;
  }

  private handOff(m: Message): void {
    const key = this.findOpen(m);
    const request = key === undefined ? null : (this.state.open.get(key) as OpenRecord);
    // Map.set on an existing key keeps its (seq-order) position.
    if (key !== undefined && request && m.target) this.state.open.set(key, reassigned(request, m.target));
    this.recordClosure(m, MessageType.HANDOFF, request);
  }

  /** The open thread a message refers to: by correlation id first, else by inReplyTo = request seq. */
  private findOpen(m: Message): string | undefined {
    const s = this.state;
    if (m.correlationId != null && s.open.has(m.correlationId)) return m.correlationId;
    if (m.inReplyTo != null) {
      const key = s.openBySeq.get(m.inReplyTo);
      if (key !== undefined && s.open.has(key)) return key;
    }
    return undefined;
  }

  private recordClosure(m: Message, outcome: ClosureOutcome, request: OpenRecord | null): void {
    const closures = this.state.closures;
    closures.push({
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
      text: m.content,
    });
    trimToNewest(closures, RECENT_CLOSURES_KEEP);
  }
}

/** Reads createdAt as epoch ms; tolerates an ISO string (e.g. a message that went through JSON). */
function toEpochMs(createdAt: Date | string): number {
  return createdAt instanceof Date ? createdAt.getTime() : Date.parse(createdAt);
}

/** Keeps a list near `keep` entries at amortised O(1) per push: trims only once it doubles. */
function trimToNewest<T>(list: T[], keep: number): void {
  if (list.length > 2 * keep) list.splice(0, list.length - keep);
}

import { MessageType } from '@qhorus/api';

/** The two request types that open a thread. */
export type RequestType = MessageType.QUERY | MessageType.COMMAND;
/** Types that open (or reopen) a thread (DESIGN §2): the requests, and a HANDOFF. */
export type ThreadType = RequestType | MessageType.HANDOFF;

/** How a thread left the open list (or, for HANDOFF, changed hands while staying open). */
export type ClosureOutcome =
  | MessageType.RESPONSE
  | MessageType.DONE
  | MessageType.DECLINE
  | MessageType.FAILURE
  | MessageType.HANDOFF;

/**
 * A timestamp as carried by a record: a Date while it comes from the current batch (converted to
 * ISO 8601 only if the record is kept), a string once it has been through annotations.
 */
export type Instant = Date | string;

/** Every closure outcome, in the order they are listed above. */
export const CLOSURE_OUTCOMES: readonly ClosureOutcome[] = Object.freeze([
  MessageType.RESPONSE,
  MessageType.DONE,
  MessageType.DECLINE,
  MessageType.FAILURE,
  MessageType.HANDOFF,
]);

/** The contract shape of one `openThreads` entry (DESIGN §3). */
export interface OpenThread {
  readonly correlationId: string | null;
  /** The type of the message that opened (or last reopened) the thread. */
  readonly type: ThreadType;
  readonly sender: string;
  readonly seq: number;
}

/** What the report shows about an open thread beyond the contract shape (`openThreadDetails`, keyed by seq). */
export interface OpenThreadDetail {
  /** Who owes the next step: the request's target, or the agent it was last handed off to; null = anyone. */
  readonly target: string | null;
  readonly topic: string;
  readonly at: string;
  readonly text: string;
}

/**
 * Working record of an open request. Records are never mutated (a carried-over record may be
 * shared with an earlier result): a HANDOFF replaces the record with a reassigned copy.
 */
export interface OpenRecord extends OpenThread {
  readonly target: string | null;
  readonly topic: string;
  readonly at: Instant;
  /** Raw content for this batch's requests; already an excerpt for carried-over ones. */
  readonly text: string;
  /**
   * Memo of the record's JSON in `openThreads` / `openThreadDetails`, written once by the encoder
   * (see encode-state-snapshot.ts): a carried-over thread is serialised once, not once per
   * call. A copy with other values must reset both (see `reassigned`).
   */
  threadJson?: string;
  detailJson?: string;
}

/** A copy of an open record handed to another agent (memos reset: the details changed). */
export function reassigned(record: OpenRecord, target: string | null): OpenRecord {
  return { ...record, target, threadJson: undefined, detailJson: undefined };
}

/** A thread that was answered, completed, declined, failed or handed off. */
export interface ClosureRecord {
  readonly outcome: ClosureOutcome;
  /** The request it closed, when one was matched (unmatched DONE/DECLINE/FAILURE/HANDOFF are kept too). */
  readonly correlationId: string | null;
  readonly requestType: ThreadType | null;
  readonly requester: string | null;
  readonly requestSeq: number | null;
  /** Who closed it (or handed it off). */
  readonly by: string;
  /** For HANDOFF: the agent taking over. */
  readonly target: string | null;
  readonly topic: string;
  readonly seq: number;
  readonly at: Instant;
  readonly text: string;
}

/** A decision, as recognised by `isDecision` (see decision-rule.ts). */
export interface DecisionRecord {
  readonly seq: number;
  readonly sender: string;
  readonly topic: string;
  readonly at: Instant;
  readonly text: string;
}

/** An agent's latest STATUS (the agent is the map key). */
export interface StatusRecord {
  readonly seq: number;
  readonly topic: string;
  readonly at: Instant;
  readonly text: string;
}

/** An open thread with its details, as written to annotations and shown in the report. */
export interface OpenThreadView extends OpenThread, OpenThreadDetail {
  /** JSON memos, see OpenRecord. */
  threadJson?: string;
  detailJson?: string;
}

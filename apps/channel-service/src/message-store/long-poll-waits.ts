import { BadRequestException } from '@nestjs/common';
import { Principal } from '../auth/principal';

/** A posted message as a stream event carries it (what a waiter decides on). */
export type PostedMessageData = Record<string, unknown>;

/** What a wait listens to: one channel's events (its id), or every channel's (an inbox wait). */
export const EVERY_CHANNEL = Symbol('every channel');
export type WaitScope = string | typeof EVERY_CHANNEL;

/** 400 before anything is read: a wait longer than the deployment allows. */
export function assertWaitWithin(waitMs: number, max: number): void {
  if (waitMs <= max) return;
  const problem = `must be at most ${max} (QHORUS_LONG_POLL_MAX_MS)`;
  throw new BadRequestException({ message: `Invalid request: waitMs ${waitMs} ${problem}`, details: [{ field: 'waitMs', problems: [problem] }] });
}

/** What a wait needs besides its read: who waits, and how to re-check that they still may read. */
export interface WaitAccess {
  by: Principal;
  /** Throws (404) when `by` may no longer read the channel; run after every sleep, before the read. */
  recheck: () => Promise<unknown>;
}

/**
 * Long polls (REST `waitMs`, MCP `wait_for_messages`, the inbox wait), as the message reads
 * (messages/) and the inbox (threads/) need them. A port beside the stored message, below both;
 * realtime/ (above, where the channel events are) provides it, so a read can wait for a post
 * without depending on the real-time machinery.
 */
export abstract class LongPollWaits {
  /**
   * Reads; when `read` finds nothing, sleeps until a post that `wakes` accepts (or `waitMs`, the
   * caller leaving, shutdown), re-checks access and reads again. Holds one of the caller's wait
   * slots meanwhile (429 when it holds the most allowed already).
   */
  abstract wait<T>(access: WaitAccess, scope: WaitScope, waitMs: number, read: () => Promise<T[]>, wakes: (m: PostedMessageData) => boolean, signal?: AbortSignal): Promise<T[]>;
  /** Waits in progress on this instance (all agents). */
  abstract get count(): number;
  /** Waits subscribed and asleep until a matching post (or their deadline). */
  abstract get sleepingCount(): number;
}

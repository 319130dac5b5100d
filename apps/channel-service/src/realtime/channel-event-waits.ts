import { BeforeApplicationShutdown, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { BearerChallengeException } from '../auth/bearer-challenge';
import { OnEvent } from '@nestjs/event-emitter';
import { AgentCredentialsChangedEvent } from '../auth/agent-credentials-changed.event';
import { isAdmin, Principal } from '../auth/principal';
import { RealtimeConfig } from '../config/slices/realtime-config';
import { EVERY_CHANNEL, LongPollWaits, PostedMessageData, WaitAccess, WaitScope } from '../message-store/long-poll-waits';
import { ChannelEventHub } from './channel-event-hub';
import { ACCESS_CHANGED, ChannelStreamEvent, MESSAGE_POSTED, RESYNC } from './channel-stream-event';
import { EventFanout } from './event-fanout';

/** A wait slot frees when one of the agent's waits answers: retry after about this long. */
export const WAIT_SLOT_RETRY_AFTER_SECONDS = 1;

/** 429 (with `Retry-After`, which ApiErrorFilter copies): the agent already holds as many concurrent waits as allowed. */
export class TooManyWaitsException extends HttpException {
  readonly headers = { 'retry-after': String(WAIT_SLOT_RETRY_AFTER_SECONDS) };

  constructor(agent: string, limit: number) {
    const problem = `at most ${limit} concurrent waits per agent (QHORUS_LONG_POLL_MAX_PER_AGENT)`;
    super({ message: `Too many concurrent waits for '${agent}': ${problem}`, details: [{ field: 'waitMs', problems: [problem] }] }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** One wait in progress: woken early (and refused) when its agent's token is revoked or rotated. */
interface ActiveWait {
  readonly by: Principal;
  credentialsChanged: boolean;
  wake: () => void;
}

/**
 * Long polls (REST `waitMs`, MCP `wait_for_messages`), served from the channel event fan-out: in
 * process on the embedded default, across instances over the instance bus. A wait holds no database
 * connection: it reads, subscribes (and counts as interest, so other instances publish to it),
 * reads again to close the race with a post committed in between, then sleeps until a matching
 * message event, its deadline, the client leaving or shutdown, re-checks the caller's access (a
 * member removed meanwhile gets 404, a revoked or rotated token 401, never the new messages) and
 * reads once more. An inbox wait listens to every channel (`EVERY_CHANNEL`): its read decides
 * what the caller may see, and a change of a channel's members wakes it too.
 */
@Injectable()
export class ChannelEventWaits extends LongPollWaits implements BeforeApplicationShutdown {
  private readonly perAgent = new Map<string, number>();
  private readonly sleeping = new Set<() => void>();
  private readonly active = new Set<ActiveWait>();
  private closing = false;

  constructor(
    private readonly hub: ChannelEventHub,
    private readonly fanout: EventFanout,
    private readonly config: RealtimeConfig,
  ) {
    super();
  }

  async wait<T>(access: WaitAccess, scope: WaitScope, waitMs: number, read: () => Promise<T[]>, wakes: (m: PostedMessageData) => boolean, signal?: AbortSignal): Promise<T[]> {
    const release = this.reserve(access.by.name);
    const active: ActiveWait = { by: access.by, credentialsChanged: false, wake: () => {} };
    this.active.add(active);
    try {
      const first = await read();
      this.assertCredentialsUnchanged(active);
      if (first.length > 0 || signal?.aborted) return first;
      return await this.sleepThenRead(active, access, scope, waitMs, read, wakes, signal);
    } finally {
      this.active.delete(active);
      release();
    }
  }

  /** A revoked or rotated token's waits end at once with 401 (as its event streams end). */
  @OnEvent(AgentCredentialsChangedEvent.NAME, { suppressErrors: true })
  onCredentialsChanged(event: AgentCredentialsChangedEvent): void {
    for (const active of this.active) {
      if (isAdmin(active.by) || active.by.name !== event.agentName) continue;
      active.credentialsChanged = true;
      active.wake();
    }
  }

  get count(): number {
    let n = 0;
    for (const held of this.perAgent.values()) n += held;
    return n;
  }

  get sleepingCount(): number {
    return this.sleeping.size;
  }

  /** Wakes every wait so the HTTP server can close: each answers with what is there. */
  beforeApplicationShutdown(): void {
    this.closing = true;
    for (const wake of [...this.sleeping]) wake();
  }

  private reserve(agent: string): () => void {
    const held = this.perAgent.get(agent) ?? 0;
    const limit = this.config.longPollsPerAgent;
    if (held >= limit) throw new TooManyWaitsException(agent, limit);
    this.perAgent.set(agent, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.perAgent.get(agent) ?? 1) - 1;
      if (now === 0) this.perAgent.delete(agent);
      else this.perAgent.set(agent, now);
    };
  }

  private async sleepThenRead<T>(
    active: ActiveWait,
    access: WaitAccess,
    scope: WaitScope,
    waitMs: number,
    read: () => Promise<T[]>,
    wakes: (m: PostedMessageData) => boolean,
    signal?: AbortSignal,
  ): Promise<T[]> {
    let timedOut = false;
    let woken!: Promise<void>;
    let wake: () => void = () => {};
    const arm = () => (woken = new Promise<void>((resolve) => (wake = resolve)));
    arm();
    // Whichever promise is armed now: the one a credential change, an abort or shutdown resolves.
    const wakeNow = () => wake();
    active.wake = wakeNow;
    // A resync (the bus between instances may have dropped a post) wakes it to read again; with
    // nothing new it sleeps on until its deadline.
    const listener = (event: ChannelStreamEvent) => {
      if ((event.name === MESSAGE_POSTED && wakes(event.data)) || event.name === RESYNC || (scope === EVERY_CHANNEL && event.name === ACCESS_CHANGED)) wake();
    };
    const unsubscribe = scope === EVERY_CHANNEL ? this.hub.subscribeAll(listener) : this.hub.subscribe(scope, listener);
    const timer = setTimeout(() => {
      timedOut = true;
      wake();
    }, waitMs);
    signal?.addEventListener('abort', wakeNow);
    const stopListening = await this.fanout.listen();
    try {
      const again = await read();
      this.assertCredentialsUnchanged(active);
      if (again.length > 0 || signal?.aborted || this.closing) return again;
      this.sleeping.add(wakeNow);
      for (;;) {
        await woken;
        this.assertCredentialsUnchanged(active);
        if (signal?.aborted) return [];
        await access.recheck();
        const rows = await read();
        this.assertCredentialsUnchanged(active);
        if (rows.length > 0 || timedOut || this.closing) return rows;
        arm();
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', wakeNow);
      this.sleeping.delete(wakeNow);
      unsubscribe();
      stopListening();
    }
  }

  private assertCredentialsUnchanged(active: ActiveWait): void {
    if (active.credentialsChanged) throw new BearerChallengeException(`The token of '${active.by.name}' was revoked or rotated while it waited`, true);
  }
}

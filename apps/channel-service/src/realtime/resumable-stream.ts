import { MESSAGE_POSTED, RESYNC, SUMMARY_UPDATED, ChannelStreamEvent } from './channel-stream-event';
import { messageEventId, StreamResume, summaryEventId } from './event-ids';
import { SSE_MAX_HELD_EVENTS, SSE_REPLAY_PAGE } from './sse-limits';
import { SseStream } from './sse-stream';

/** A message as the stream sends it, with its seq and whether it is EVENT telemetry. */
export interface ReplayedMessage {
  seq: number;
  telemetry: boolean;
  data: Record<string, unknown>;
}

/** Where a resumable stream reads what it missed: Postgres. */
export interface StreamHistory {
  /** Messages after `afterSeq` (EVENTs included), ascending, at most `limit`. */
  messagesAfter(afterSeq: number, limit: number): Promise<ReplayedMessage[]>;
  /** The channel's summary now (data of a summary.updated event), or null before the first one. */
  currentSummary(): Promise<{ version: number; data: Record<string, unknown> } | null>;
}

/**
 * One stream's order keeper. Live events arrive from the fan-out (subscribed before anything is
 * read); while the stream catches up from Postgres they are held, then sent if newer than what was
 * replayed. A live message that skips seqs (an event lost between instances, or two instances'
 * posts arriving out of order) sends the stream back to Postgres for the missing range, so the
 * client sees every seq once, in order, whichever instance it is on.
 */
export class ResumableStream {
  /** The last seq sent (or skipped as telemetry the client did not ask for). */
  private position: number;
  private version = 0;
  private catchingUp = true;
  private held: ChannelStreamEvent[] = [];
  /** A resync came while catching up: read Postgres once more before going live. */
  private readAgain = false;
  private summaryAfterVersion: number | null;

  constructor(
    private readonly stream: SseStream,
    private readonly history: StreamHistory,
    resume: StreamResume,
    private readonly includeEvents: boolean,
    private readonly overflow: () => void,
  ) {
    this.position = resume.afterSeq;
    this.summaryAfterVersion = resume.summaryAfterVersion;
  }

  /** A live event from the fan-out; a resync reads Postgres again from where the stream is. */
  onEvent(event: ChannelStreamEvent): void {
    if (event.name === RESYNC) {
      if (this.catchingUp) this.readAgain = true;
      else this.start();
      return;
    }
    if (this.catchingUp) return this.hold(event);
    if (this.sendLive(event)) return;
    this.hold(event);
    this.start();
  }

  /** Replays from Postgres, then goes live. Rejects when reading history fails. */
  catchUp(): Promise<void> {
    return this.replay();
  }

  private start(): void {
    this.catchingUp = true;
    this.replay().catch(() => this.overflow());
  }

  private hold(event: ChannelStreamEvent): void {
    this.held.push(event);
    if (this.held.length > SSE_MAX_HELD_EVENTS) this.overflow();
  }

  private async replay(): Promise<void> {
    for (;;) {
      const before = this.position;
      this.readAgain = false;
      await this.replayMessages();
      await this.replaySummary();
      const held = this.held;
      this.held = [];
      const gapAt = held.findIndex((e) => !this.sendLive(e));
      if (gapAt < 0) {
        if (this.readAgain) continue;
        break;
      }
      // Postgres had nothing new: the missing seqs do not exist, so the gap is real; go on past it.
      if (this.position === before) this.position = Number(held[gapAt].data.seq) - 1;
      this.held = [...held.slice(gapAt), ...this.held];
    }
    this.catchingUp = false;
  }

  private async replayMessages(): Promise<void> {
    for (;;) {
      const page = await this.history.messagesAfter(this.position, SSE_REPLAY_PAGE);
      for (const m of page) this.sendMessage(m.seq, m.telemetry, m.data);
      if (page.length < SSE_REPLAY_PAGE || this.stream.isClosed) return;
      await this.stream.roomToWrite();
    }
  }

  private async replaySummary(): Promise<void> {
    if (this.summaryAfterVersion === null) return;
    const after = this.summaryAfterVersion;
    this.summaryAfterVersion = null;
    const summary = await this.history.currentSummary();
    if (summary && summary.version > after) this.sendSummary(summary.version, summary.data);
    else if (summary) this.version = Math.max(this.version, summary.version);
  }

  /** Sends a live event in order; false (sending nothing) when messages before it are missing. */
  private sendLive(event: ChannelStreamEvent): boolean {
    if (event.name === SUMMARY_UPDATED) {
      const version = Number(event.data.version);
      if (version > this.version) this.sendSummary(version, event.data);
      return true;
    }
    if (event.name !== MESSAGE_POSTED) return true;
    const seq = Number(event.data.seq);
    if (seq <= this.position) return true; // replayed already
    if (seq > this.position + 1) return false;
    this.sendMessage(seq, event.telemetry, event.data);
    return true;
  }

  private sendMessage(seq: number, telemetry: boolean, data: Record<string, unknown>): void {
    this.position = seq;
    if (telemetry && !this.includeEvents) return;
    this.stream.send(MESSAGE_POSTED, data, messageEventId(seq));
  }

  private sendSummary(version: number, data: Record<string, unknown>): void {
    this.version = version;
    this.stream.send(SUMMARY_UPDATED, data, summaryEventId(this.position, version));
  }
}

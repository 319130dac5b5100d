import { Message, MessageType } from '@qhorus/api';
import { ChannelReconfiguredEvent } from '../channels/channel-reconfigured.event';
import { messageView } from '../message-store/message.entity';
import { MessagePostedEvent } from '../message-store/message-posted.event';
import { SummaryUpdatedEvent } from '../summary/summary-updated.event';

/** The SSE event names clients see (DESIGN §6). */
export const MESSAGE_POSTED = MessagePostedEvent.NAME;
export const SUMMARY_UPDATED = SummaryUpdatedEvent.NAME;
/** Internal only: a channel's members may have changed, so open streams re-check access. */
export const ACCESS_CHANGED = ChannelReconfiguredEvent.NAME;

/**
 * Internal only: the bus between instances may have dropped events (a Redis or LISTEN connection
 * came back), so waits and streams read Postgres again instead of trusting they heard everything.
 */
export const RESYNC = 'qhorus.resync';

export type StreamEventName = typeof MESSAGE_POSTED | typeof SUMMARY_UPDATED | typeof ACCESS_CHANGED | typeof RESYNC;

/**
 * A channel event in the form the hub delivers and the bus carries between instances: plain
 * JSON, so it reads the same whichever process emitted it.
 */
export interface ChannelStreamEvent {
  channelId: string;
  name: StreamEventName;
  data: Record<string, unknown>;
  /** An EVENT-type message: sent only to streams that asked for telemetry. */
  telemetry: boolean;
}

/** The message as JSON carries it (the date as an ISO string; metadata is already plain JSON from Postgres). */
export function messagePostedStreamEvent(e: MessagePostedEvent): ChannelStreamEvent {
  return { channelId: e.channelId, name: MESSAGE_POSTED, data: messagePostedData(e.message), telemetry: e.message.type === MessageType.EVENT };
}

/** The data of a `message.posted` event, live or replayed from Postgres. */
export function messagePostedData(m: Message): Record<string, unknown> {
  return { ...messageView(m), createdAt: m.createdAt.toISOString() };
}

export function summaryUpdatedStreamEvent(e: SummaryUpdatedEvent): ChannelStreamEvent {
  return { channelId: e.channelId, name: SUMMARY_UPDATED, data: summaryUpdatedData(e.channelName, e), telemetry: false };
}

/** The data of a `summary.updated` event, live or replayed. */
export function summaryUpdatedData(channel: string, s: { version: number; coversThroughSeq: number; updatedBy: string | null }): Record<string, unknown> {
  return { channel, version: s.version, coversThroughSeq: s.coversThroughSeq, updatedBy: s.updatedBy };
}

export function accessChangedStreamEvent(e: ChannelReconfiguredEvent): ChannelStreamEvent {
  return { channelId: e.channelId, name: ACCESS_CHANGED, data: {}, telemetry: false };
}

export function resyncStreamEvent(channelId: string): ChannelStreamEvent {
  return { channelId, name: RESYNC, data: {}, telemetry: false };
}

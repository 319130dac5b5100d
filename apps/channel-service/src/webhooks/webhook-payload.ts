import { ADMIN, ADMIN_NAME, Principal } from '../auth/principal';
import { canAccess } from '../channels/channel-access';
import { MessageRow, messageView, toMessage } from '../message-store/message.entity';
import { ClaimedDelivery, WEBHOOK_TEST_EVENT } from './webhook.entity';

/** The body every hook receives (DESIGN §11). */
export interface WebhookPayload {
  type: string;
  /** When the event happened (the commit of the message or summary), ISO 8601: the same on every retry. */
  timestamp: string;
  data: unknown;
}

/** An event that is not sent, and why (logged on the hook, never with content). */
export interface Dropped {
  dropped: string;
}

/** The principal a hook's owner is: the channel access rule judges what it may receive. */
export function ownerPrincipal(owner: string): Principal {
  return owner === ADMIN_NAME ? ADMIN : { kind: 'agent', name: owner };
}

/**
 * The payload of a message event (message.posted, message.addressed, thread.closed: `data` is the
 * message, for thread.closed the one that closed it) or a test, rendered now from the tables, as
 * the REST API shows it to the hook's owner; or why it is not sent: the owner may no longer read
 * the channel (DESIGN §11: access at delivery time), or the message is gone.
 */
export function renderMessagePayload(d: ClaimedDelivery, message: MessageRow | undefined): WebhookPayload | Dropped {
  const timestamp = d.event_at.toISOString();
  if (d.type === WEBHOOK_TEST_EVENT) return { type: d.type, timestamp, data: { webhookId: d.webhook_id } };
  if (d.channel === null) return { dropped: 'the channel was deleted' };
  if (!canAccess({ members: d.members }, ownerPrincipal(d.owner))) return { dropped: `the owner may no longer read channel '${d.channel}'` };
  if (!message) return { dropped: 'the message was removed' };
  return { type: d.type, timestamp, data: messageView(toMessage(message, d.channel)) };
}

export const isDropped = (p: WebhookPayload | Dropped): p is Dropped => 'dropped' in p;

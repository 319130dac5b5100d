/** The events a hook can subscribe to (DESIGN §11). */
export const WEBHOOK_EVENTS = ['message.addressed', 'message.posted', 'summary.updated', 'thread.closed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** What `POST /webhooks/{id}/test` sends. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export interface WebhookRow {
  id: string;
  owner: string;
  url: string;
  events: string[];
  channels: string[] | null;
  types: string[] | null;
  created_at: Date;
  disabled_at: Date | null;
  disabled_reason: string | null;
}

/** Every column but the secret, which is read only to sign. */
export const WEBHOOK_COLUMNS = 'id, owner, url, events, channels, types, created_at, disabled_at, disabled_reason';

export interface Webhook {
  id: string;
  owner: string;
  url: string;
  events: WebhookEvent[];
  channels: string[] | null;
  types: string[] | null;
  createdAt: Date;
  disabledAt: Date | null;
  disabledReason: string | null;
}

export function toWebhook(r: WebhookRow): Webhook {
  return {
    id: r.id,
    owner: r.owner,
    url: r.url,
    events: r.events as WebhookEvent[],
    channels: r.channels,
    types: r.types,
    createdAt: r.created_at,
    disabledAt: r.disabled_at,
    disabledReason: r.disabled_reason,
  };
}

export interface WebhookAttemptRow {
  event_id: string;
  type: string;
  attempt: number;
  status: number | null;
  duration_ms: number;
  error: string | null;
  at: Date;
}

export const WEBHOOK_ATTEMPT_COLUMNS = 'event_id, type, attempt, status, duration_ms, error, at';

/** One claimed delivery with what rendering and sending it need (see WebhooksRepository.claim). */
export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  type: string;
  channel_id: string | null;
  seq: string | null;
  event_at: Date;
  attempt: number;
  created_at: Date;
  url: string;
  secret: string;
  owner: string;
  hook_disabled: boolean;
  owner_revoked: boolean;
  channel: string | null;
  members: string[] | null;
}

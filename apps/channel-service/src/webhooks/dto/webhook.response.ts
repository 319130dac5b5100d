import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENTS } from '../webhook.entity';

/** A webhook as its owner (or the admin) sees it: never its secret. */
export class WebhookResponse {
  id: string;
  /** The agent whose hook it is (`admin` for the admin's). */
  owner: string;
  url: string;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENTS] } })
  events: string[];
  @ApiProperty({ type: [String], nullable: true, description: 'Only these channels (null: every channel the owner may read)' })
  channels: string[] | null;
  @ApiProperty({ type: [String], nullable: true, description: 'message.posted only for these types (null: every type but EVENT)' })
  types: string[] | null;
  createdAt: Date;
  @ApiProperty({ type: Date, nullable: true, description: 'When the service disabled it (410 Gone, or failing for QHORUS_WEBHOOK_GIVE_UP_MS); null while enabled' })
  disabledAt: Date | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why it was disabled' })
  disabledReason: string | null;
}

/** The answer of `POST /webhooks`: the hook and its signing secret, shown this once. */
export class CreatedWebhookResponse extends WebhookResponse {
  /** The Standard Webhooks signing secret (`whsec_…`): verify each delivery's `webhook-signature` with it. Shown only here. */
  secret: string;
}

/** One delivery attempt of an event to a hook (no payload: it is rendered at each attempt and not kept). */
export class WebhookAttemptResponse {
  /** The event's `webhook-id`, the same on every attempt. */
  eventId: string;
  /** message.posted, message.addressed, summary.updated, thread.closed or webhook.test. */
  type: string;
  @ApiProperty({ type: 'integer', description: 'Counts from 1' })
  attempt: number;
  @ApiProperty({ type: 'integer', nullable: true, description: "The receiver's HTTP status (null: no answer, or not sent)" })
  status: number | null;
  @ApiProperty({ type: 'integer' })
  durationMs: number;
  @ApiProperty({ type: String, required: false, description: 'Why it failed or was not sent (absent when delivered)' })
  error?: string;
  at: Date;
}

/** The answer of `POST /webhooks/{id}/test`: the test event queued for delivery. */
export class WebhookTestResponse {
  /** Its `webhook-id`: find it in `GET /webhooks/{id}/deliveries`. */
  eventId: string;
}

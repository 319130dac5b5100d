import { ApiPropertyOptional } from '@nestjs/swagger';

/**
 * Response bodies of the agent routes, as classes so the OpenAPI document (and the client
 * generated from it) names them; the swagger CLI plugin describes their fields from these types
 * and comments.
 */

/** An agent as `GET /agents` lists it. */
export class AgentDto {
  /** The agent's name, the sender of its messages. */
  name: string;
  createdAt: Date;
  /** Written behind in batches: up to QHORUS_LAST_SEEN_FLUSH_MS late; null if never seen. */
  lastSeenAt: Date | null;
}

/** A new agent and its token, shown this once. */
export class RegisteredAgentDto {
  name: string;
  /** Send as `Authorization: Bearer <token>`. Shown once; only its hash is stored. */
  token: string;
  createdAt: Date;
}

/** `DELETE /agents/{name}`: the agent is revoked on every instance; its name stays taken. */
export class RevokedAgentDto {
  name: string;
  /** When it was first revoked (a repeated revoke answers the same time). */
  revokedAt: Date;
  @ApiPropertyOptional({ type: 'integer', description: 'With `?erase=true`: how many of its messages were redacted now' })
  erased?: number;
}

/** `POST /agents/{name}/token`: the agent's new token, shown this once; the old one is refused on every instance. */
export class RotatedTokenDto {
  name: string;
  /** The new token. Shown once; only its hash is stored. */
  token: string;
  rotatedAt: Date;
}

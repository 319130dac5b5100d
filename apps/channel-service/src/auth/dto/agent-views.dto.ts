import { ApiProperty } from '@nestjs/swagger';

/** An agent as `GET /agents` lists it. */
export class AgentDto {
  @ApiProperty({ example: 'planner' })
  name: string;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: Date;

  /** Written behind in batches: up to QHORUS_LAST_SEEN_FLUSH_MS late; null if never seen. */
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastSeenAt: Date | null;
}

/** A new agent and its token, shown this once. */
export class RegisteredAgentDto {
  @ApiProperty({ example: 'planner' })
  name: string;

  @ApiProperty({ description: 'Send as Authorization: Bearer <token>. Shown once; only its hash is stored.' })
  token: string;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: Date;
}

/** `DELETE /agents/{name}`: the agent is revoked on every instance; its name stays taken. */
export class RevokedAgentDto {
  @ApiProperty({ example: 'planner' })
  name: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'When it was first revoked (a repeated revoke answers the same time).' })
  revokedAt: Date;
}

/** `POST /agents/{name}/token`: the agent's new token, shown this once; the old one is refused on every instance. */
export class RotatedTokenDto {
  @ApiProperty({ example: 'planner' })
  name: string;

  @ApiProperty({ description: 'The new token. Shown once; only its hash is stored.' })
  token: string;

  @ApiProperty({ type: String, format: 'date-time' })
  rotatedAt: Date;
}

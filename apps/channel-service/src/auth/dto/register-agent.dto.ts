import { IsBoolean, IsOptional, IsString, Matches, MinLength, NotEquals } from 'class-validator';
import { ADMIN_NAME } from '../principal';

export const AGENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export class RegisterAgentDto {
  /** The agent's unique name, used as the sender of its messages. */
  @IsString()
  @Matches(AGENT_NAME_PATTERN, { message: 'name must be 1-64 characters of letters, digits, ".", "_" or "-", starting with a letter or digit' })
  // The admin token acts as 'admin' (sender, channel creator): an agent of that name would pass for it.
  @NotEquals(ADMIN_NAME, { message: `name '${ADMIN_NAME}' is reserved for the admin token` })
  name: string;
}

/** Names an existing agent (revoke, rotate by MCP tool); any string, an unknown one is a 404. */
export class AgentNameDto {
  @IsString()
  @MinLength(1)
  name: string;
}

/** The `revoke_agent` tool's arguments: the agent, and whether to redact every message it sent. */
export class RevokeAgentArgsDto extends AgentNameDto {
  @IsOptional()
  @IsBoolean()
  erase?: boolean;
}

import { IsString, Matches, MinLength } from 'class-validator';

export const AGENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export class RegisterAgentDto {
  /** The agent's unique name, used as the sender of its messages. */
  @IsString()
  @Matches(AGENT_NAME_PATTERN, { message: 'name must be 1-64 characters of letters, digits, ".", "_" or "-", starting with a letter or digit' })
  name: string;
}

/** Names an existing agent (revoke, rotate by MCP tool); any string, an unknown one is a 404. */
export class AgentNameDto {
  @IsString()
  @MinLength(1)
  name: string;
}

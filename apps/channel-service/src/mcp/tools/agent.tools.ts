import { ForbiddenException, Injectable, Optional } from '@nestjs/common';
import { AgentEraser } from '../../auth/agent-eraser';
import { AuthService } from '../../auth/auth.service';
import { AgentNameDto, RegisterAgentDto, RevokeAgentArgsDto } from '../../auth/dto/register-agent.dto';
import { isAdmin } from '../../auth/principal';
import { McpTool, McpToolGroup } from '../mcp-tool';
import { optional, required, toDto, toolInput } from '../tool-args';

@Injectable()
export class AgentTools implements McpToolGroup {
  constructor(
    private readonly auth: AuthService,
    @Optional() private readonly eraser?: AgentEraser,
  ) {}

  tools(): McpTool[] {
    return [
      {
        name: 'register',
        description:
          'Admin only (call with the admin token). Registers a new agent and returns {name, token}. The token is shown this ' +
          'once: hand it to the agent, which sends it as "Authorization: Bearer <token>" on every MCP and REST call. The ' +
          'name becomes the sender of that agent\'s messages; a taken name fails.',
        input: toolInput({
          name: required({ type: 'string', description: 'Unique agent name: 1-64 letters, digits, ".", "_" or "-".' }),
        }),
        annotations: { destructiveHint: false, idempotentHint: false },
        run: async (args, by) => {
          if (!isAdmin(by)) throw new ForbiddenException('This tool needs the admin token');
          const dto = await toDto(RegisterAgentDto, args, { name: 'name' });
          const { agent, token } = await this.auth.register(dto.name);
          return { name: agent.name, token, createdAt: agent.createdAt };
        },
      },
      {
        name: 'revoke_agent',
        description:
          'Admin only. Revokes an agent: its token is refused from the next request on, on every instance, and its name is ' +
          'never registered again. With erase true, every message it sent is then redacted too (audited). Returns ' +
          '{name, revokedAt} (and erased, how many messages, with erase); an unknown name fails.',
        input: toolInput({
          name: required({ type: 'string', description: 'The agent to revoke.' }),
          erase: optional({ type: 'boolean', description: 'Also redact every message the agent sent (default false).' }),
        }),
        annotations: { destructiveHint: true, idempotentHint: true },
        run: async (args, by) => {
          if (!isAdmin(by)) throw new ForbiddenException('This tool needs the admin token');
          const dto = await toDto(RevokeAgentArgsDto, args, { name: 'name', erase: 'erase' });
          const agent = await this.auth.revoke(dto.name);
          const revoked = { name: agent.name, revokedAt: agent.revokedAt };
          if (!dto.erase || !this.eraser) return revoked;
          return { ...revoked, erased: await this.eraser.erase(agent.name, by) };
        },
      },
      {
        name: 'rotate_agent_token',
        description:
          "Admin only. Gives an agent a new token and returns {name, token, rotatedAt}; the token is shown this once. The old " +
          'token is refused from the next request on, on every instance.',
        input: toolInput({ name: required({ type: 'string', description: 'The agent whose token to replace.' }) }),
        annotations: { destructiveHint: true, idempotentHint: false },
        run: async (args, by) => {
          if (!isAdmin(by)) throw new ForbiddenException('This tool needs the admin token');
          const dto = await toDto(AgentNameDto, args, { name: 'name' });
          const { agent, token } = await this.auth.rotate(dto.name);
          return { name: agent.name, token, rotatedAt: new Date() };
        },
      },
    ];
  }
}

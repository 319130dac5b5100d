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
        description: 'Admin: registers an agent; returns its token (shown once).',
        adminOnly: true,
        input: toolInput({
          name: required({ type: 'string' }),
        }),
        run: async (args, by) => {
          if (!isAdmin(by)) throw new ForbiddenException('This tool needs the admin token');
          const dto = await toDto(RegisterAgentDto, args, { name: 'name' });
          const { agent, token } = await this.auth.register(dto.name);
          return { name: agent.name, token, createdAt: agent.createdAt };
        },
      },
      {
        name: 'revoke_agent',
        description: 'Admin: revokes an agent and its token, for good; erase true also redacts every message it sent (audited).',
        adminOnly: true,
        input: toolInput({ name: required({ type: 'string' }), erase: optional({ type: 'boolean' }) }),
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
        description: 'Admin: gives an agent a new token (shown once); the old one stops working.',
        adminOnly: true,
        input: toolInput({ name: required({ type: 'string' }) }),
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

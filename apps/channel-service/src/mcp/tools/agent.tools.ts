import { ForbiddenException, Injectable } from '@nestjs/common';
import { AuthService } from '../../auth/auth.service';
import { AgentNameDto, RegisterAgentDto } from '../../auth/dto/register-agent.dto';
import { isAdmin } from '../../auth/principal';
import { McpTool, McpToolGroup } from '../mcp-tool';
import { required, toDto, toolInput } from '../tool-args';

@Injectable()
export class AgentTools implements McpToolGroup {
  constructor(private readonly auth: AuthService) {}

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
        description: 'Admin: revokes an agent and its token, for good.',
        adminOnly: true,
        input: toolInput({ name: required({ type: 'string' }) }),
        run: async (args, by) => {
          if (!isAdmin(by)) throw new ForbiddenException('This tool needs the admin token');
          const dto = await toDto(AgentNameDto, args, { name: 'name' });
          const agent = await this.auth.revoke(dto.name);
          return { name: agent.name, revokedAt: agent.revokedAt };
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

import { Body, Controller, Get, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from './auth.decorators';
import { AuthService } from './auth.service';
import { AgentResponse, RegisteredAgentResponse } from './dto/agent.response';
import { RegisterAgentDto } from './dto/register-agent.dto';

@ApiTags('agents')
@ApiBearerAuth()
@Controller('agents')
export class AgentsController {
  constructor(private readonly auth: AuthService) {}

  /** Registers an agent and returns its token, shown this once. */
  @Post()
  @AdminOnly()
  @HttpCode(HttpStatus.CREATED)
  @ApiCreatedResponse({ type: RegisteredAgentResponse })
  async register(@Body() dto: RegisterAgentDto): Promise<RegisteredAgentResponse> {
    const { agent, token } = await this.auth.register(dto.name);
    return { name: agent.name, token, createdAt: agent.createdAt };
  }

  @Get()
  @ApiOkResponse({ type: [AgentResponse] })
  async list(): Promise<AgentResponse[]> {
    const agents = await this.auth.list();
    return agents.map((a) => ({ name: a.name, createdAt: a.createdAt }));
  }
}

import { Body, Controller, Get, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from './auth.decorators';
import { AuthService } from './auth.service';
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
  async register(@Body() dto: RegisterAgentDto) {
    const { agent, token } = await this.auth.register(dto.name);
    return { name: agent.name, token, createdAt: agent.createdAt };
  }

  @Get()
  async list() {
    const agents = await this.auth.list();
    return agents.map((a) => ({ name: a.name, createdAt: a.createdAt }));
  }
}

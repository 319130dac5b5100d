import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Optional, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AgentEraser } from './agent-eraser';
import { AdminOnly, CurrentPrincipal } from './auth.decorators';
import { AuthService } from './auth.service';
import { AgentDto, RegisteredAgentDto, RevokedAgentDto, RotatedTokenDto } from './dto/agent-views.dto';
import { RegisterAgentDto } from './dto/register-agent.dto';
import { RevokeAgentQuery } from './dto/revoke-agent.query';
import { Principal } from './principal';
import { NoQuery, NoQueryPipe } from '../common/no-query.pipe';

@ApiTags('agents')
@ApiBearerAuth()
@Controller('agents')
export class AgentsController {
  constructor(
    private readonly auth: AuthService,
    @Optional() private readonly eraser?: AgentEraser,
  ) {}

  /** Registers an agent and returns its token, shown this once. */
  @Post()
  @AdminOnly()
  @HttpCode(HttpStatus.CREATED)
  @ApiCreatedResponse({ type: RegisteredAgentDto })
  async register(@Body() dto: RegisterAgentDto): Promise<RegisteredAgentDto> {
    const { agent, token } = await this.auth.register(dto.name);
    return { name: agent.name, token, createdAt: agent.createdAt };
  }

  /** Active agents with their creation and last-seen times. */
  @Get()
  @ApiOkResponse({ type: [AgentDto] })
  async list(@Query(NoQueryPipe) _query: NoQuery): Promise<AgentDto[]> {
    const agents = await this.auth.list();
    return agents.map((a) => ({ name: a.name, createdAt: a.createdAt, lastSeenAt: a.lastSeenAt }));
  }

  /**
   * Revokes an agent: its token is refused from the next request on, on every instance. The name
   * is never registered again. With `?erase=true`, every message it sent is then redacted too.
   */
  @Delete(':name')
  @AdminOnly()
  @ApiOperation({ summary: 'Revoke an agent, and with erase=true redact every message it sent (admin)' })
  @ApiOkResponse({ type: RevokedAgentDto })
  async revoke(@Param('name') name: string, @Query() query: RevokeAgentQuery, @CurrentPrincipal() by: Principal): Promise<RevokedAgentDto> {
    const agent = await this.auth.revoke(name);
    const revoked = { name: agent.name, revokedAt: agent.revokedAt! };
    if (!query.erase || !this.eraser) return revoked;
    return { ...revoked, erased: await this.eraser.erase(agent.name, by) };
  }

  /** Gives an agent a new token (shown this once); the old one is refused from the next request on, on every instance. */
  @Post(':name/token')
  @AdminOnly()
  @HttpCode(HttpStatus.CREATED)
  @ApiOperation({ summary: "Rotate an agent's token (admin)" })
  @ApiCreatedResponse({ type: RotatedTokenDto })
  async rotate(@Param('name') name: string): Promise<RotatedTokenDto> {
    const { agent, token } = await this.auth.rotate(name);
    return { name: agent.name, token, rotatedAt: new Date() };
  }
}

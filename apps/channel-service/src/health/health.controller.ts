import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService } from '@nestjs/terminus';
import { Public } from '../auth/auth.decorators';
import { DatabaseHealthIndicator } from './database.health';
import { DependencyHealth, HealthResponse, LivenessResponse } from './dto/health.response';
import { QueueHealthIndicator } from './queue.health';

const READY_EXAMPLE = {
  status: 'ok',
  info: { database: { status: 'up', backend: 'postgres' }, queue: { status: 'up', backend: 'redis' } },
  error: {},
  details: { database: { status: 'up', backend: 'postgres' }, queue: { status: 'up', backend: 'redis' } },
};

/**
 * `/health` (readiness: every dependency answers) and `/health/live` (liveness: the process
 * serves requests). No token: probes and load balancers call these.
 */
@ApiTags('operations')
@ApiExtraModels(DependencyHealth)
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: DatabaseHealthIndicator,
    private readonly queue: QueueHealthIndicator,
  ) {}

  /** Readiness: Postgres and the summary queue (Redis) each reported; 503 naming the one that is down. */
  @Get()
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ summary: 'Readiness: each dependency (database, queue) with its status' })
  @ApiOkResponse({ description: 'Every dependency is up', type: HealthResponse, example: READY_EXAMPLE })
  @ApiServiceUnavailableResponse({ description: 'A dependency is down; `details` says which' })
  async ready(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([() => this.database.check(), () => this.queue.check()]);
    } catch (err) {
      const result = (err as { response?: HealthCheckResult }).response;
      if (!result?.details) throw err;
      const down = Object.entries(result.details).filter(([, v]) => v.status !== 'up');
      throw new ServiceUnavailableException({
        message: `Not ready: ${down.map(([key, v]) => `${key} is down${v.message ? ` (${v.message})` : ''}`).join('; ')}`,
        details: result.details,
      });
    }
  }

  /** Liveness: answers as long as the process serves HTTP; checks no dependency. */
  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process is serving requests' })
  @ApiOkResponse({ description: 'The process is alive', type: LivenessResponse })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}

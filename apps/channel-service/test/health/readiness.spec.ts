import { ServiceUnavailableException } from '@nestjs/common';
import { HealthIndicatorResult } from '@nestjs/terminus';
import { loadConfig } from '../../src/config/app-config';
import { DatabaseHealthIndicator } from '../../src/health/database.health';
import { HealthController } from '../../src/health/health.controller';
import { QueueHealthIndicator } from '../../src/health/queue.health';

const up = (key: string, backend: string): HealthIndicatorResult => ({ [key]: { status: 'up', backend } });
const down = (key: string, backend: string, message: string): HealthIndicatorResult => ({ [key]: { status: 'down', backend, message } });

function controller(role: 'api' | 'all' | 'worker', queue: HealthIndicatorResult, database = up('database', 'postgres')): HealthController {
  const config = loadConfig({ DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://x', QHORUS_ROLE: role });
  return new HealthController({ check: async () => database } as unknown as DatabaseHealthIndicator, { check: async () => queue } as unknown as QueueHealthIndicator, config);
}

describe('readiness by role (the indicators themselves are exercised against real services in test/ops.e2e-spec.ts)', () => {
  const redisDown = down('queue', 'redis', 'Redis is unreachable');

  it.each(['api', 'all'] as const)('%s: Redis down is a 200 that reports the queue as degraded', async (role) => {
    const result = await controller(role, redisDown).ready();
    expect(result.status).toBe('degraded');
    expect(result.details.queue).toMatchObject({ status: 'degraded', backend: 'redis' });
  });

  it('worker: Redis down is a 503 naming the queue, without driver text', async () => {
    const failure = await controller('worker', redisDown).ready().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ServiceUnavailableException);
    const body = (failure as ServiceUnavailableException).getResponse() as { message: string; details: Record<string, { status: string }> };
    expect(body.message).toMatch(/queue is down.*Redis/);
    expect(body.details.queue.status).toBe('down');
  });

  it.each(['api', 'all', 'worker'] as const)('%s: Postgres down is a 503 whatever the role', async (role) => {
    const failure = await controller(role, up('queue', 'redis'), down('database', 'postgres', 'Postgres is unreachable')).ready().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ServiceUnavailableException);
  });
});

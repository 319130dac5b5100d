import { Logger, ServiceUnavailableException } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { SummaryQueue } from '../../src/summary/queue/summary-queue';
import { loadConfig } from '../../src/config/app-config';
import { HealthConfig } from '../../src/config/slices/health-config';
import { DatabaseHealthIndicator } from '../../src/health/database.health';
import { HealthController } from '../../src/health/health.controller';
import { QueueHealthIndicator } from '../../src/health/queue.health';

const up = (key: string, backend: string): HealthIndicatorResult => ({ [key]: { status: 'up', backend } });
const down = (key: string, backend: string, message: string): HealthIndicatorResult => ({ [key]: { status: 'down', backend, message } });

function controller(role: 'api' | 'all' | 'worker', queue: HealthIndicatorResult, database = up('database', 'postgres')): HealthController {
  const config = new HealthConfig(loadConfig({ DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://x', QHORUS_ROLE: role }));
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

describe('QueueHealthIndicator', () => {
  afterEach(() => jest.restoreAllMocks());

  it('names Redis as down in the answer, and logs the driver\'s error once per outage (and the recovery)', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    let problem: string | null = 'connect ECONNREFUSED 127.0.0.1:6390';
    const queue = { problem: async () => problem } as unknown as SummaryQueue;
    const indicator = new QueueHealthIndicator(new HealthIndicatorService(), queue, new HealthConfig(loadConfig({ DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://x' })));
    expect(await indicator.check()).toEqual(down('queue', 'redis', 'Redis is unreachable'));
    await indicator.check();
    expect(warn.mock.calls).toEqual([[{ err: 'connect ECONNREFUSED 127.0.0.1:6390' }, 'readiness: Redis is unreachable']]);
    problem = null;
    expect(await indicator.check()).toEqual(up('queue', 'redis'));
    expect(log.mock.calls).toEqual([['readiness: Redis answers again']]);
  });
});


import { BeforeApplicationShutdown, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { InstanceBus } from './instance-bus';
import { LocalInstanceBus } from './local-instance-bus';
import { PostgresInstanceBus } from './postgres-instance-bus';
import { RedisInstanceBus } from './redis-instance-bus';

/**
 * The instance bus (one per process, whoever imports this module): Redis pub/sub when REDIS_URL
 * is set, Postgres LISTEN/NOTIFY when only DATABASE_URL is, in-process on the embedded database.
 */
@Module({
  providers: [
    {
      provide: InstanceBus,
      inject: [AppConfig, Database],
      useFactory: (config: AppConfig, db: Database): InstanceBus => {
        if (config.REDIS_URL) return new RedisInstanceBus(config.REDIS_URL, config.QHORUS_QUEUE_PREFIX);
        if (config.embeddedDatabase) return new LocalInstanceBus();
        return new PostgresInstanceBus(config.DATABASE_URL!, db);
      },
    },
  ],
  exports: [InstanceBus],
})
export class BusModule implements BeforeApplicationShutdown {
  constructor(private readonly bus: InstanceBus) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.bus.close();
  }
}

import { BeforeApplicationShutdown, Module } from '@nestjs/common';
import { BusConfig } from '../config/slices/bus-config';
import { DatabaseConfig } from '../config/slices/database-config';
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
      inject: [BusConfig, DatabaseConfig, Database],
      useFactory: (config: BusConfig, database: DatabaseConfig, db: Database): InstanceBus => {
        if (config.redisUrl) return new RedisInstanceBus(config.redisUrl, config.keyPrefix);
        if (database.embedded) return new LocalInstanceBus();
        return new PostgresInstanceBus(database.url!, db);
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

import { AppConfig } from '../app-config';

/** bus/: the instance bus's Redis (its Postgres driver listens on DatabaseConfig's database). */
export class BusConfig {
  /** Redis pub/sub between instances; undefined: Postgres LISTEN/NOTIFY, or in process. */
  readonly redisUrl: string | undefined;
  /** The deployment's key prefix, before each topic's Redis channel. */
  readonly keyPrefix: string;

  constructor(config: AppConfig) {
    this.redisUrl = config.REDIS_URL;
    this.keyPrefix = config.QHORUS_QUEUE_PREFIX;
  }
}

import { configSlice } from '../config-slice';

/** bus/: the instance bus's Redis (its Postgres driver listens on DatabaseConfig's database). */
export class BusConfig extends configSlice((config) => ({
  /** Redis pub/sub between instances; undefined: Postgres LISTEN/NOTIFY, or in process. */
  redisUrl: config.REDIS_URL,
  /** The deployment's key prefix, before each topic's Redis channel. */
  keyPrefix: config.QHORUS_QUEUE_PREFIX,
})) {}

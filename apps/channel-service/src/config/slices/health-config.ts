import { configSlice } from '../config-slice';

/** health/: which backends this process has, and whether it needs the queue to be ready. */
export class HealthConfig extends configSlice((config) => ({
  role: config.QHORUS_ROLE,
  embeddedDatabase: config.embeddedDatabase,
  inProcessQueue: config.inProcessQueue,
})) {}

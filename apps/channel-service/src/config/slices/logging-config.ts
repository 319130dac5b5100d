import { configSlice } from '../config-slice';

/** logging/: the pino logger. */
export class LoggingConfig extends configSlice((config) => ({
  level: config.LOG_LEVEL,
})) {}

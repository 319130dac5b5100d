import { AppConfig, LogLevel } from '../app-config';

/** logging/: the pino logger. */
export class LoggingConfig {
  readonly level: LogLevel;

  constructor(config: AppConfig) {
    this.level = config.LOG_LEVEL;
  }
}

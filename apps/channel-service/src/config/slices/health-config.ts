import { AppConfig, Role } from '../app-config';

/** health/: which backends this process has, and whether it needs the queue to be ready. */
export class HealthConfig {
  readonly role: Role;
  readonly embeddedDatabase: boolean;
  readonly inProcessQueue: boolean;

  constructor(config: AppConfig) {
    this.role = config.QHORUS_ROLE;
    this.embeddedDatabase = config.embeddedDatabase;
    this.inProcessQueue = config.inProcessQueue;
  }
}

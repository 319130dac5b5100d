import { AppConfig } from '../app-config';

/** audit/: reading the audit log, in pages. */
export class AuditConfig {
  readonly pageLimitDefault: number;
  readonly pageLimitMax: number;

  constructor(config: AppConfig) {
    this.pageLimitDefault = config.QHORUS_PAGE_LIMIT_DEFAULT;
    this.pageLimitMax = config.QHORUS_PAGE_LIMIT_MAX;
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { Database } from '../database/database';
import { withTimeout } from '../common/with-timeout';
import { HealthConfig } from '../config/slices/health-config';
import { HEALTH_CHECK_TIMEOUT_MS } from './health-check-timeout';

export const DATABASE_HEALTH_KEY = 'database';

/**
 * Postgres answers `SELECT 1` (a real server, or the embedded PGlite). The probe is public: the
 * driver's error text (addresses, ports, user names) goes to the log, never into the answer.
 */
@Injectable()
export class DatabaseHealthIndicator {
  private readonly logger = new Logger(DatabaseHealthIndicator.name);
  /** Logged once per outage, not once per probe. */
  private down = false;

  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly db: Database,
    private readonly config: HealthConfig,
  ) {}

  async check() {
    const session = this.indicators.check(DATABASE_HEALTH_KEY);
    const backend = this.config.embeddedDatabase ? 'embedded' : 'postgres';
    try {
      await withTimeout(this.db.query('SELECT 1'), HEALTH_CHECK_TIMEOUT_MS, 'database ping');
      if (this.down) this.logger.log('readiness: Postgres answers again');
      this.down = false;
      return session.up({ backend });
    } catch (err) {
      if (!this.down) this.logger.warn({ err: (err as Error).message }, 'readiness: Postgres is unreachable');
      this.down = true;
      return session.down({ backend, message: 'Postgres is unreachable' });
    }
  }
}

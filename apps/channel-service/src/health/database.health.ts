import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { Database } from '../database/database';
import { withTimeout } from '../common/with-timeout';
import { AppConfig } from '../config/app-config';
import { HEALTH_CHECK_TIMEOUT_MS } from './health-check-timeout';

export const DATABASE_HEALTH_KEY = 'database';

/** Postgres answers `SELECT 1` (a real server, or the embedded PGlite). */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly db: Database,
    private readonly config: AppConfig,
  ) {}

  async check() {
    const session = this.indicators.check(DATABASE_HEALTH_KEY);
    const backend = this.config.embeddedDatabase ? 'embedded' : 'postgres';
    try {
      await withTimeout(this.db.query('SELECT 1'), HEALTH_CHECK_TIMEOUT_MS, 'database ping');
      return session.up({ backend });
    } catch (err) {
      return session.down({ backend, message: `Postgres is unreachable: ${(err as Error).message}` });
    }
  }
}

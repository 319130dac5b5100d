import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (issue 29, DESIGN §10) refuses TRUNCATE as it refuses UPDATE and DELETE: a row
 * trigger does not fire on TRUNCATE, so `TRUNCATE audit_log` emptied the append-only table. A
 * statement trigger with the same function closes that. (The table's owner can still drop the
 * triggers; the guard is against the service and a mistaken statement, not against its owner.)
 * Nothing to backfill.
 */
export class AuditLogNoTruncate1765840000000 implements MigrationInterface {
  name = 'AuditLogNoTruncate1765840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_log`);
  }
}

import { configSlice } from '../config-slice';

/** audit/: reading the audit log, in pages. */
export class AuditConfig extends configSlice((config) => ({
  pageLimitDefault: config.QHORUS_PAGE_LIMIT_DEFAULT,
  pageLimitMax: config.QHORUS_PAGE_LIMIT_MAX,
})) {}

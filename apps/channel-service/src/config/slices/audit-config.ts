import { configSlice } from '../config-slice';

/** audit/: reading the audit log, in pages (the maximum page is a RequestLimitsConfig bound). */
export class AuditConfig extends configSlice((config) => ({
  pageLimitDefault: config.QHORUS_PAGE_LIMIT_DEFAULT,
})) {}

import { configSlice } from '../config-slice';

/** The settings that may bound a request field (`@ConfiguredMax`, common/configured-limit.ts). */
export type LimitSetting =
  | 'QHORUS_PAGE_LIMIT_MAX'
  | 'QHORUS_LONG_POLL_MAX_MS'
  | 'QHORUS_SUMMARY_TEXT_MAX_CHARS'
  | 'QHORUS_SEARCH_QUERY_MAX_CHARS'
  | 'QHORUS_SEARCH_LIMIT_MAX'
  | 'QHORUS_WEBHOOK_LOG_KEEP';

/** common/'s configured limits: each request field's maximum, by the setting that names it (a 400 and the OpenAPI document name the setting). */
export class RequestLimitsConfig extends configSlice((config) => ({
  bySetting: {
    QHORUS_PAGE_LIMIT_MAX: config.QHORUS_PAGE_LIMIT_MAX,
    QHORUS_LONG_POLL_MAX_MS: config.QHORUS_LONG_POLL_MAX_MS,
    QHORUS_SUMMARY_TEXT_MAX_CHARS: config.QHORUS_SUMMARY_TEXT_MAX_CHARS,
    QHORUS_SEARCH_QUERY_MAX_CHARS: config.QHORUS_SEARCH_QUERY_MAX_CHARS,
    QHORUS_SEARCH_LIMIT_MAX: config.QHORUS_SEARCH_LIMIT_MAX,
    QHORUS_WEBHOOK_LOG_KEEP: config.QHORUS_WEBHOOK_LOG_KEEP,
  } as Readonly<Record<LimitSetting, number>>,
})) {}

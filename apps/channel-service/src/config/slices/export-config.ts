import { configSlice } from '../config-slice';

/** export/: a channel as NDJSON. */
export class ExportConfig extends configSlice((config) => ({
  /** Messages read per page (an export's memory, whatever the channel's length). */
  pageSize: config.QHORUS_EXPORT_PAGE_SIZE,
})) {}

import { AppConfig } from '../app-config';

/** export/: a channel as NDJSON. */
export class ExportConfig {
  /** Messages read per page (an export's memory, whatever the channel's length). */
  readonly pageSize: number;

  constructor(config: AppConfig) {
    this.pageSize = config.QHORUS_EXPORT_PAGE_SIZE;
  }
}

import { AppConfig } from '../app-config';

/** search/: the QHORUS_SEARCH_* settings. */
export class SearchConfig {
  /** QHORUS_SEARCH_CONFIG: the text-search configuration the index should use (checked against the database at start-up). */
  readonly textSearchConfig: string;
  readonly queryMaxChars: number;
  readonly limitDefault: number;
  readonly limitMax: number;
  readonly snippetMaxChars: number;
  /** Messages per batch when the index is filled or rebuilt. */
  readonly reindexBatch: number;

  constructor(config: AppConfig) {
    this.textSearchConfig = config.QHORUS_SEARCH_CONFIG;
    this.queryMaxChars = config.QHORUS_SEARCH_QUERY_MAX_CHARS;
    this.limitDefault = config.QHORUS_SEARCH_LIMIT_DEFAULT;
    this.limitMax = config.QHORUS_SEARCH_LIMIT_MAX;
    this.snippetMaxChars = config.QHORUS_SEARCH_SNIPPET_MAX_CHARS;
    this.reindexBatch = config.QHORUS_SEARCH_REINDEX_BATCH;
  }
}

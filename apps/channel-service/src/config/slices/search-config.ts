import { configSlice } from '../config-slice';

/** search/: the QHORUS_SEARCH_* settings (the query's length and the page's maximum are RequestLimitsConfig bounds). */
export class SearchConfig extends configSlice((config) => ({
  /** QHORUS_SEARCH_CONFIG: the text-search configuration the index should use (checked against the database at start-up). */
  textSearchConfig: config.QHORUS_SEARCH_CONFIG,
  limitDefault: config.QHORUS_SEARCH_LIMIT_DEFAULT,
  snippetMaxChars: config.QHORUS_SEARCH_SNIPPET_MAX_CHARS,
  /** Messages per batch when the index is filled or rebuilt. */
  reindexBatch: config.QHORUS_SEARCH_REINDEX_BATCH,
})) {}

import { createHash } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json';

/** What an inbox tag is computed over: the page as answered, less what changes with the clock. */
export interface TaggedInbox {
  items: readonly { ageSeconds: number }[];
  total: number;
}

/** Characters of the base64url SHA-256 kept in a tag (144 bits: no accidental collision). */
const TAG_LENGTH = 24;

/**
 * The inbox's strong ETag: equal for equal pages (same obligations, same order, same total),
 * whatever time it is (`ageSeconds` left out), so a client can wait for a change with `If-None-Match`.
 */
export function inboxTag(inbox: TaggedInbox): string {
  const items = inbox.items.map(({ ageSeconds: _age, ...rest }) => rest);
  // Through JSON first: dates as the answer writes them (canonicalJson sees a Date as an empty object).
  const answered: unknown = JSON.parse(JSON.stringify({ items, total: inbox.total }));
  const hash = createHash('sha256').update(canonicalJson(answered)).digest('base64url');
  return `"${hash.slice(0, TAG_LENGTH)}"`;
}

/** The tag of an inbox with nothing in it: what a wait without `If-None-Match` waits to change. */
export const EMPTY_INBOX_TAG = inboxTag({ items: [], total: 0 });

/** Whether `If-None-Match` names the tag: the one rule of every conditional read. */
export { ifNoneMatchHits as noneMatchNames } from '../common/entity-tag';

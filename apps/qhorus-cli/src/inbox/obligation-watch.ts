import { InboxChange, InboxItem, QhorusClient, QhorusError } from '@qhorus/client';
import { loadReported, obligationKey, saveReported } from './reported-state';

/** Asked of the service per inbox read; it answers at most its QHORUS_PAGE_LIMIT_MAX (new obligations come last: oldest first). */
const INBOX_PAGE = 1000;
/** One long poll's wait: below the service's default QHORUS_LONG_POLL_MAX_MS (30 s); a longer --wait chains several. */
const LONG_POLL_MS = 25_000;
/** How a 400 names the service's own bound on waitMs (long-poll-waits.ts: "must be at most N"). */
const WAIT_BOUND = /must be at most (\d+)/;

export interface WatchOptions {
  /** How long to wait for something new (0: look once). */
  waitMs: number;
  /** The state file: without it, new means not in the inbox at the start. */
  statePath?: string;
  signal?: AbortSignal;
}

export interface WatchResult {
  /** The new obligations, oldest first (empty: none in time). */
  fresh: InboxItem[];
  /** Obligations the service did not list because its page was full. */
  beyondPage: number;
}

/**
 * Waits for obligations the caller has not been told of, on the service's inbox long poll (an
 * ETag-conditional `GET /inbox?waitMs=`: it answers when the inbox changes, so no polling loop):
 * reads the inbox, reports what is new at once, else waits for a change and looks again, until
 * the time is up. With a state file, what it reports is remembered (and what left the inbox
 * forgotten, so the file stays as small as the inbox).
 */
export async function waitForNewObligations(client: QhorusClient, options: WatchOptions): Promise<WatchResult> {
  const deadline = Date.now() + options.waitMs;
  let inbox = await client.waitForInbox({ waitMs: 0, limit: INBOX_PAGE, signal: options.signal });
  const remembered = options.statePath ? await loadReported(options.statePath) : null;
  const reported = remembered ?? (options.statePath ? new Set<string>() : new Set(inbox.items.map(obligationKey)));
  let pollMs = LONG_POLL_MS;
  for (;;) {
    const fresh = inbox.items.filter((o) => !reported.has(obligationKey(o)));
    const remaining = deadline - Date.now();
    if (fresh.length > 0 || remaining <= 0 || options.signal?.aborted) {
      if (options.statePath) await saveReported(options.statePath, stillOpen(reported, inbox, fresh));
      return { fresh, beyondPage: inbox.total - inbox.items.length };
    }
    try {
      const change: InboxChange = await client.waitForInbox({ etag: inbox.etag, waitMs: Math.min(remaining, pollMs), limit: INBOX_PAGE, signal: options.signal });
      if (change.changed) inbox = change;
    } catch (err) {
      if (options.signal?.aborted) continue; // Ctrl-C: report what there is (nothing new)
      const bound = serviceWaitBound(err);
      if (bound === null || bound >= pollMs) throw err;
      pollMs = bound;
    }
  }
}

/** The keys to remember: what is reported now, and what was reported before and is still listed (or may be, past a full page). */
function stillOpen(reported: Set<string>, inbox: InboxChange, fresh: InboxItem[]): Set<string> {
  const listed = new Set(inbox.items.map(obligationKey));
  const pageFull = inbox.total > inbox.items.length;
  const kept = [...reported].filter((k) => pageFull || listed.has(k));
  return new Set([...kept, ...fresh.map(obligationKey)]);
}

/** A service with a lower QHORUS_LONG_POLL_MAX_MS refuses our wait naming its bound: wait that long instead. */
function serviceWaitBound(err: unknown): number | null {
  if (!(err instanceof QhorusError) || err.statusCode !== 400) return null;
  const found = WAIT_BOUND.exec(err.message);
  return found ? Number(found[1]) : null;
}

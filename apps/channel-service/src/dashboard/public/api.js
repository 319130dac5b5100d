// The dashboard's only way to the API: every call carries the operator's bearer token.

const TOKEN_KEY = 'qhorus.token';
export const API = '/api/v1';

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: (value) => sessionStorage.setItem(TOKEN_KEY, value),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

export function authHeaders() {
  const t = token.get();
  return t ? { authorization: `Bearer ${t}` } : {};
}

/** GET a JSON resource under /api/v1; throws ApiError with the API's message on a non-2xx. */
export async function getJson(path, { signal } = {}) {
  const res = await fetch(API + path, { headers: { accept: 'application/json', ...authHeaders() }, signal });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

export const channelPath = (name) => `/channels/${encodeURIComponent(name)}`;

/** Runs `fn` over `items` with at most `limit` in flight: a long channel list must not flood the API. */
export async function mapLimited(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  });
  await Promise.all(workers);
  return results;
}

/**
 * POST a JSON body under /api/v1 with an Idempotency-Key (one per call: a retried click is not
 * stored twice); answers the created resource, or throws ApiError with the API's message.
 */
export async function postJson(path, body, { signal } = {}) {
  const res = await fetch(API + path, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), ...authHeaders() },
    body: JSON.stringify(body),
    signal,
  });
  const answer = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, answer);
  return answer;
}

/**
 * The signed-in agent's inbox. With `etag` and `waitMs`, a long poll: the service answers when
 * the inbox is no longer the one `etag` names, else 304 at the deadline (`changed: false`).
 */
export async function getInbox({ etag, waitMs, limit, signal } = {}) {
  const params = new URLSearchParams();
  if (waitMs) params.set('waitMs', String(waitMs));
  if (limit) params.set('limit', String(limit));
  const query = params.size > 0 ? `?${params}` : '';
  const headers = { accept: 'application/json', ...authHeaders(), ...(etag ? { 'if-none-match': etag } : {}) };
  const res = await fetch(`${API}/inbox${query}`, { headers, signal, cache: 'no-store' });
  if (res.status === 304) return { changed: false, items: [], total: 0, etag };
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body);
  return { changed: true, items: body, total: Number(res.headers.get('x-total-count') ?? body.length), etag: res.headers.get('etag') };
}

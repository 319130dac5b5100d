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

import { OperationId, OPERATIONS } from '@qhorus/client';

/** Which operation of the route table a request is, by method and path (templates as regexes). */
const ROUTES = Object.entries(OPERATIONS).map(([id, op]) => ({
  id: id as OperationId,
  method: op.method as string,
  pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

export function operationOf(method: string, url: string): OperationId | undefined {
  const path = new URL(url).pathname;
  return ROUTES.find((r) => r.method === method && r.pattern.test(path))?.id;
}

/**
 * A fetch that records every request a QhorusClient makes (operation, headers), so a test can
 * prove which operations it exercised and what went on the wire.
 */
export function recordingFetch(): { fetch: typeof fetch; seen: Set<OperationId>; requests: { id?: OperationId; url: string; headers: Headers }[] } {
  const seen = new Set<OperationId>();
  const requests: { id?: OperationId; url: string; headers: Headers }[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const id = operationOf(request.method, request.url);
    if (id) seen.add(id);
    requests.push({ id, url: request.url, headers: request.headers });
    return fetch(request);
  };
  return { fetch: recording, seen, requests };
}

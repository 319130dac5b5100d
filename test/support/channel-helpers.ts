import { ApiClient, waitFor } from './http';

/** Posts `count` STATUS messages sequentially, returning their seqs. */
export async function postMany(client: ApiClient, channel: string, count: number, text = (i: number) => `update ${i}`): Promise<number[]> {
  const seqs: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await client.post(`/api/v1/channels/${channel}/messages`, { type: 'STATUS', content: text(i) });
    if (res.status !== 201) throw new Error(`post failed: ${res.status} ${JSON.stringify(res.body)}`);
    seqs.push(res.body.seq);
  }
  return seqs;
}

export function getSummary(client: ApiClient, channel: string) {
  return client.get(`/api/v1/channels/${channel}/summary`).then((r) => r.body);
}

/** Waits until the summary satisfies `ok`, returning it. */
export function waitForSummary(client: ApiClient, channel: string, ok: (s: any) => boolean, what: string, timeoutMs = 30_000) {
  return waitFor(async () => {
    const s = await getSummary(client, channel);
    return ok(s) ? s : null;
  }, what, timeoutMs);
}

/** Waits until the summary stops changing (no job running or queued for a while). */
export async function waitForQuietSummary(client: ApiClient, channel: string, quietMs = 1_000): Promise<any> {
  let last = await getSummary(client, channel);
  let since = Date.now();
  return waitFor(async () => {
    const s = await getSummary(client, channel);
    if (s.version !== last.version) {
      last = s;
      since = Date.now();
      return null;
    }
    return Date.now() - since >= quietMs ? s : null;
  }, 'a quiet summary');
}

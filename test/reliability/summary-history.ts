import { ApiClient } from '../support/http';

export interface HistoryStep {
  version: number;
  coversFromSeq: number;
  coversThroughSeq: number;
}

/** The channel's summary history, oldest first. */
export async function summaryHistory(client: ApiClient, channel: string): Promise<HistoryStep[]> {
  const res = await client.get(`/api/v1/channels/${channel}/summary/history?limit=1000`);
  if (res.status !== 200) throw new Error(`history of ${channel}: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as HistoryStep[]).slice().reverse();
}

/**
 * Every message 1..lastSeq is covered by exactly one summary step: steps are contiguous
 * (each starts right after the previous one ends), never overlap, never skip, and versions
 * go up by one.
 */
export function expectHistoryCoversExactlyOnce(history: HistoryStep[], lastSeq: number): void {
  expect(history.length).toBeGreaterThan(0);
  expect(history[0].coversFromSeq).toBe(1);
  for (let i = 0; i < history.length; i++) {
    const step = history[i];
    expect(step.coversThroughSeq).toBeGreaterThanOrEqual(step.coversFromSeq);
    if (i > 0) {
      expect({ version: step.version, from: step.coversFromSeq }).toEqual({
        version: history[i - 1].version + 1,
        from: history[i - 1].coversThroughSeq + 1,
      });
    }
  }
  expect(history[history.length - 1].coversThroughSeq).toBe(lastSeq);
}

import { conversation } from './message-fixtures';
import { historyMessageCost, HistoryTokenLedger } from '../../src/projection/history-token-ledger';

describe('HistoryTokenLedger', () => {
  const history = conversation(1, 2500, ['alice', 'bob']);
  const reads: [number, number][] = [];
  const read = async (after: number, through: number, limit: number) => {
    reads.push([after, through]);
    return history.filter((m) => m.seq > after && m.seq <= through).slice(0, limit);
  };
  const costThrough = (seq: number) => history.filter((m) => m.seq <= seq).reduce((sum, m) => sum + historyMessageCost(m), 0);

  beforeEach(() => (reads.length = 0));

  it('counts the history in pages, then reads only what is new', async () => {
    const ledger = new HistoryTokenLedger();
    expect(await ledger.tokensThrough('c1', 2100, read)).toBe(costThrough(2100));
    expect(reads).toEqual([[0, 2100], [1000, 2100], [2000, 2100]]);
    reads.length = 0;
    expect(await ledger.tokensThrough('c1', 2100, read)).toBe(costThrough(2100));
    expect(reads).toEqual([]);
    expect(await ledger.tokensThrough('c1', 2500, read)).toBe(costThrough(2500));
    expect(reads).toEqual([[2100, 2500]]);
  });

  it('recounts a request behind its count, and forgets the least recently used channel', async () => {
    const ledger = new HistoryTokenLedger(1);
    await ledger.tokensThrough('c1', 50, read);
    expect(await ledger.tokensThrough('c1', 10, read)).toBe(costThrough(10));
    await ledger.tokensThrough('c2', 5, read);
    reads.length = 0;
    await ledger.tokensThrough('c1', 50, read);
    expect(reads[0]).toEqual([0, 50]);
  });
});

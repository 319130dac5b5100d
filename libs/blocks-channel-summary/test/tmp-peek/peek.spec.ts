import { SummaryResult, summaryResult } from '@qhorus/api';
import { HeuristicMessageSummariser } from '@qhorus/blocks-channel-summary';
import { generateConversation } from '../conversation-generator';
it('bench', async () => {
  const { messages } = generateConversation(60_000, 3);
  const h = new HeuristicMessageSummariser();
  const copy = process.env.COPY === '1';
  const chunk = Number(process.env.CHUNK);
  for (let rep = 0; rep < 3; rep++) {
      let prev: SummaryResult | null = null;
      const n = chunk <= 100 ? 20_000 : messages.length;
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i += chunk) prev = await h.summarise(messages.slice(i, i + chunk), copy && prev ? summaryResult(prev.text, {...prev.annotations}) : prev);
      const s = Number(process.hrtime.bigint() - t0) / 1e9;
      console.log(`copy=${copy} chunk ${chunk}: ${Math.round(n / s)} msg/s; open=${JSON.parse(prev!.annotations.openThreads).length}`);
  }
}, 120000);

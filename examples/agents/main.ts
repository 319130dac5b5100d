import Anthropic from '@anthropic-ai/sdk';
import { QhorusClient } from '@qhorus/client';
import { runPlanner } from './planner';
import { runWorker } from './worker';

/**
 * A planner and a worker coordinating through Qhorus, each thinking with Claude:
 *
 *   npm start                                  # in one terminal
 *   QHORUS_ADMIN_TOKEN=$(cat .data/admin-token) ANTHROPIC_API_KEY=… \
 *     npm run build && node dist/examples/agents/main.js
 *
 * Knobs: QHORUS_URL (http://localhost:3000), QHORUS_ADMIN_TOKEN (registers the two agents),
 * ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, QHORUS_LLM_MODEL, EXAMPLE_CHANNEL, EXAMPLE_GOAL.
 */
const DEFAULT_MODEL = 'claude-sonnet-4-5';
const DEFAULT_GOAL = 'decide whether release 42 can ship on Friday';

async function main(): Promise<void> {
  const baseUrl = process.env.QHORUS_URL ?? 'http://localhost:3000';
  const admin = new QhorusClient({ baseUrl, token: process.env.QHORUS_ADMIN_TOKEN });
  const suffix = Date.now().toString(36);
  const channel = process.env.EXAMPLE_CHANNEL ?? `plan-${suffix}`;
  const [planner, worker] = await Promise.all([`planner-${suffix}`, `worker-${suffix}`].map((n) => admin.registerAgent(n)));
  const asPlanner = new QhorusClient({ baseUrl, token: planner.token });
  const asWorker = new QhorusClient({ baseUrl, token: worker.token });
  await asPlanner.createChannel({ name: channel, description: process.env.EXAMPLE_GOAL ?? DEFAULT_GOAL });
  const anthropic = new Anthropic({ apiKey: process.env.ANTHROPIC_API_KEY, baseURL: process.env.ANTHROPIC_BASE_URL });
  const model = process.env.QHORUS_LLM_MODEL ?? DEFAULT_MODEL;
  const [outcome] = await Promise.all([
    runPlanner({ client: asPlanner, anthropic, model, channel, worker: worker.name, goal: process.env.EXAMPLE_GOAL ?? DEFAULT_GOAL }),
    runWorker({ client: asWorker, anthropic, model, channel, name: worker.name }),
  ]);
  console.log(`Q: ${outcome.question}\nA: ${outcome.answer}\nDone: ${outcome.conclusion}\n\nSummary v${outcome.summary.version}:\n${outcome.summary.text}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

import { exampleSettings, runExample } from './run-example';

/**
 * A planner and a worker coordinating through Qhorus, each thinking with Claude:
 *
 *   npm start                                  # in one terminal
 *   npm run build && QHORUS_ADMIN_TOKEN=$(cat .data/admin-token) ANTHROPIC_API_KEY=… \
 *     node dist/examples/agents/main.js
 *
 * Knobs: QHORUS_URL (http://localhost:3000), QHORUS_ADMIN_TOKEN (registers the two agents),
 * ANTHROPIC_API_KEY (or QHORUS_LLM_API_KEY), ANTHROPIC_BASE_URL, EXAMPLE_MODEL
 * (default DEFAULT_EXAMPLE_MODEL), EXAMPLE_CHANNEL, EXAMPLE_GOAL. Both are checked before
 * anything is created; the agents are revoked (and the channel deleted, where the service can)
 * when the run ends.
 */
async function main(): Promise<void> {
  const run = await runExample(exampleSettings(process.env));
  const { outcome } = run;
  console.log(`Q: ${outcome.question}\nA: ${outcome.answer}\nDone: ${outcome.conclusion}\n\nSummary v${outcome.summary.version}:\n${outcome.summary.text}`);
  console.log(`\nCleaned up: agents ${run.agents.join(', ')} revoked; channel ${run.channel} ${run.channelDeleted ? 'deleted' : 'kept (this service cannot delete channels)'}.`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

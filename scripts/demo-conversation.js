// The conversation `npm run demo` plays: a planner, a coder, a reviewer and a tester shipping a
// feature, with queries, commands, status, handoffs, done and a failure. Each act is followed by
// a look at the summary. `re` names the thread a message answers (its correlation id).

module.exports = [
  {
    title: 'Kick-off',
    messages: [
      ['planner', 'COMMAND', 'Implement the checkout-v2 API: POST /orders with idempotency keys', { thread: 'task-api', topic: 'api' }],
      ['planner', 'COMMAND', 'Write the migration for the orders and order_items tables', { thread: 'task-migration', topic: 'db' }],
      ['coder', 'STATUS', 'Picking up task-api first, the migration right after', { topic: 'api' }],
      ['coder', 'QUERY', 'Should idempotency keys expire, and after how long?', { thread: 'q-ttl', topic: 'api' }],
      ['planner', 'RESPONSE', 'Expire them after 24 hours: that matches the payment provider', { re: 'q-ttl', topic: 'api' }],
      ['coder', 'STATUS', 'Endpoint skeleton in place; request validation next', { topic: 'api' }],
    ],
  },
  {
    title: 'Build and review',
    messages: [
      ['coder', 'STATUS', 'Migration written: orders and order_items, foreign keys and indexes', { topic: 'db' }],
      ['coder', 'DONE', 'Migration merged', { re: 'task-migration', topic: 'db' }],
      ['coder', 'HANDOFF', 'The API is ready for review: PR #412', { thread: 'review-412', target: 'reviewer', topic: 'api' }],
      ['reviewer', 'STATUS', 'Reviewing PR #412', { topic: 'api' }],
      ['reviewer', 'QUERY', 'Why is the idempotency check outside the transaction?', { thread: 'q-tx', topic: 'api' }],
      ['coder', 'RESPONSE', 'Good catch: moved it inside the transaction and pushed a fix', { re: 'q-tx', topic: 'api' }],
      ['reviewer', 'STATUS', 'Approved PR #412 after the fix', { topic: 'api' }],
      ['reviewer', 'HANDOFF', 'Over to testing for PR #412', { thread: 'test-412', target: 'tester', topic: 'api' }],
    ],
  },
  {
    title: 'A test fails',
    messages: [
      ['tester', 'STATUS', 'Running the integration suite against PR #412', { topic: 'tests' }],
      ['tester', 'FAILURE', 'checkout_flow_test fails: a retry after a timeout creates a duplicate order', { thread: 'run-412', topic: 'tests' }],
      ['planner', 'COMMAND', 'Coder: reproduce the duplicate-order bug and fix it before anything else', { thread: 'task-dup', topic: 'api' }],
      ['coder', 'STATUS', 'Reproduced: the retry arrives before the first insert commits', { topic: 'api' }],
      ['coder', 'QUERY', 'Tester: which request ids failed?', { thread: 'q-ids', topic: 'tests' }],
      ['tester', 'RESPONSE', 'req-8812 and req-8813, 40 ms apart', { re: 'q-ids', topic: 'tests' }],
    ],
  },
  {
    title: 'Fix and ship',
    messages: [
      ['coder', 'STATUS', 'Fix: a unique index on (agent, idempotency_key); a conflict returns the original order', { topic: 'api' }],
      ['coder', 'DONE', 'Duplicate-order fix merged in PR #415', { re: 'task-dup', topic: 'api' }],
      ['tester', 'STATUS', 'Re-running the integration suite on main', { topic: 'tests' }],
      ['tester', 'DONE', 'All 214 integration tests green on main', { thread: 'run-415', topic: 'tests' }],
      ['reviewer', 'QUERY', 'Do we need a runbook entry for the new unique index?', { thread: 'q-runbook', topic: 'ops' }],
      ['planner', 'DONE', 'checkout-v2 is ready to ship', { re: 'task-api', topic: 'api' }],
      ['planner', 'STATUS', 'Release notes drafted; waiting on the runbook question', { topic: 'ops' }],
    ],
  },
];

#!/usr/bin/env node
'use strict';
// What a summary job's two statements cost the service process (driver CPU: parsing the rows)
// when the channel's state is at the open-thread cap (~64 KB of annotations, the bench's busy
// conversation): `SummaryRepository.findDue` (channel, slot and the first chunk of 20 messages)
// and `commit`, the compiled code, in process, against a fresh database. For comparison, the
// start read in its earlier shape (the channel and slot columns repeated on every message row).
//   node bench/tools/job-read-cost.js      (after `npx nest build`)
const { join } = require('node:path');
const { Pool } = require('pg');
const dist = require('../lib/dist');
const { generateConversation } = require('../lib/conversation');
const { createDatabase, runMigrations } = require('../lib/postgres');
const { runStamp } = require('../lib/stamp');

const CHUNK = 20;
const ROUNDS = Number(process.env.JOB_READ_ROUNDS ?? 300);
const SENDER = 'bench-agent';

/** The start read as it was (until 2026-12-01 evening): every row carried the channel and slot columns, annotations included. */
function repeatedShapeSql() {
  const entity = (path) => require(join(dist.DIST, 'apps/channel-service/src', path));
  const { CHANNEL_COLUMNS } = entity('channels/channel.entity.js');
  const { SLOT_COLUMNS } = entity('summary/channel-summary.entity.js');
  const { MESSAGE_COLUMNS } = entity('message-store/message.entity.js');
  const { columnNames, qualifiedColumns } = entity('database/column-list.js');
  const channel = qualifiedColumns('c', CHANNEL_COLUMNS);
  const chunk = columnNames(MESSAGE_COLUMNS).map((c) => `m.${c} AS m_${c}`).join(', ');
  return `SELECT ${channel}, ${SLOT_COLUMNS}, ${chunk}
    FROM channels c JOIN channel_summaries s ON s.channel_id = c.id
    LEFT JOIN LATERAL (SELECT ${MESSAGE_COLUMNS} FROM messages WHERE channel_id = c.id AND seq > s.covers_through_seq AND seq <= c.last_seq ORDER BY seq LIMIT $2) m ON true
    WHERE c.id = $1 ORDER BY m.seq`;
}

/** Annotations of a channel whose open threads are at the cap: the heuristic over 20,000 busy messages. */
async function capState() {
  const { ChannelSummariser, HeuristicMessageSummariser } = dist.require.channelSummary();
  const hook = new ChannelSummariser(new HeuristicMessageSummariser(), { name: 'heuristic' });
  const messages = generateConversation(20_000);
  let previous = null;
  for (let i = 0; i < messages.length; i += CHUNK) {
    previous = await hook.update({ channel: { name: 'bench', description: '' }, previous, coversThroughSeq: i, messages: messages.slice(i, i + CHUNK) });
  }
  return previous;
}

function cpuUs(work) {
  const before = process.cpuUsage();
  return work().then(() => {
    const d = process.cpuUsage(before);
    return d.user + d.system;
  });
}

(async () => {
  const db = await createDatabase(runStamp(), 'jobread');
  const pool = new Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => {}); // an idle connection closed by the database's drop at the end
  try {
    await runMigrations(db.url);
    const state = await capState();
    const { rows } = await pool.query(
      `INSERT INTO channels (name, summary_threshold, summariser, created_by, last_seq) VALUES ('cap', $1, 'heuristic', $2, $3) RETURNING id`,
      [CHUNK, SENDER, CHUNK],
    );
    const channelId = String(rows[0].id);
    await pool.query(`INSERT INTO channel_summaries (channel_id, text, annotations, version) VALUES ($1, $2, $3, 1)`, [channelId, state.text, JSON.stringify(state.annotations)]);
    await pool.query(
      `INSERT INTO messages (channel_id, seq, type, sender, content, topic)
       SELECT $1, s, 'STATUS', $2, 'step ' || s || ' of the build: 312 tests passed, artefact uploaded', 'build' FROM generate_series(1, $3::int) s`,
      [channelId, SENDER, CHUNK],
    );
    const { SummaryRepository } = dist.require.summaryRepository();
    const repository = new SummaryRepository({ query: async (text, values) => (await pool.query(text, values)).rows });
    const backoff = { ms: 60_000, retry: false };
    const earlierShape = repeatedShapeSql();
    const annotationBytes = JSON.stringify(state.annotations).length;
    let version = 1;
    const commit = () =>
      repository.commit({ channelId, historyKeep: 50, expectedVersion: version++, result: state, coversFromSeq: 1, coversThroughSeq: 0, updatedBy: 'bench' });
    const measure = async (label, once) => {
      for (let i = 0; i < 20; i++) await once(); // JIT, prepared plans
      const us = await cpuUs(async () => {
        for (let i = 0; i < ROUNDS; i++) await once();
      });
      return [label, Math.round(us / ROUNDS)];
    };
    const results = [
      await measure('findDue (channel and slot on the first row)', () => repository.findDue(channelId, CHUNK, backoff)),
      await measure('start read, earlier shape (repeated on every row)', () => pool.query(earlierShape, [channelId, CHUNK])),
      await measure('commit (text and annotations not read back)', commit),
    ];
    const due = await repository.findDue(channelId, CHUNK, backoff);
    if (due === null || due.firstChunk.length !== CHUNK || due.slot.annotations.openThreads !== state.annotations.openThreads) throw new Error('findDue did not return the seeded channel, slot and chunk');
    console.log(`state: ${annotationBytes} B of annotations, chunk of ${CHUNK} messages, ${ROUNDS} rounds; service-process CPU per call:`);
    for (const [label, us] of results) console.log(`  ${String(us).padStart(6)} µs  ${label}`);
  } finally {
    await pool.end();
    await db.drop();
  }
})().catch((err) => {
  console.error(err);
  process.exit(1);
});

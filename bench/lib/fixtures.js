'use strict';
// The data both servers are measured on: the same channels, and for GET the same summary rows.
const cfg = require('../config');
const { withClient } = require('./postgres');
const { drainSummaries } = require('../scenarios/throughput');

const channelNames = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(2, '0')}`);

/** Channels (and their empty summary slots) in the baseline's database, written directly. */
async function createBaselineChannels(url, channels) {
  await withClient(url, async (c) => {
    await c.query(
      `INSERT INTO channels (name, summary_threshold, summariser, created_by) SELECT unnest($1::text[]), $2, 'heuristic', $3`,
      [channels, cfg.DEFAULT_THRESHOLD, cfg.AGENT],
    );
    await c.query(`INSERT INTO channel_summaries (channel_id) SELECT id FROM channels`);
  });
}

/** The baseline reads byte-for-byte the same slots as the service: copies them over. */
async function copySlotsToBaseline(serviceDb, baselineDb, channels) {
  const { rows } = await withClient(serviceDb, (c) =>
    c.query(
      `SELECT c.name, c.last_seq, s.text, s.annotations, s.covers_through_seq, s.version, s.updated_at, s.updated_by
       FROM channels c JOIN channel_summaries s ON s.channel_id = c.id WHERE c.name = ANY($1)`,
      [channels],
    ),
  );
  await withClient(baselineDb, async (c) => {
    for (const r of rows) {
      // Never lower: this baseline posted its own messages (at its own rate) in the POST figures,
      // and a lower last_seq would make its next insert collide with them (the batch figure).
      await c.query(`UPDATE channels SET last_seq = GREATEST(last_seq, $2) WHERE name = $1`, [r.name, r.last_seq]);
      await c.query(
        `UPDATE channel_summaries SET text = $2, annotations = $3, covers_through_seq = $4, version = $5, updated_at = $6, updated_by = $7
         WHERE channel_id = (SELECT id FROM channels WHERE name = $1)`,
        [r.name, r.text, JSON.stringify(r.annotations), r.covers_through_seq, r.version, r.updated_at, r.updated_by],
      );
    }
  });
  return rows;
}

/** Messages per channel when GET summary runs without the POST figures before it. */
const SEED_THRESHOLDS = 5;

/** Gives every channel a real summary (only needed when the POST figures did not run). */
async function seedSummaries(agent, serviceDb, channels) {
  // One batch per channel: posted one by one, 10,000 messages from one agent would pass its
  // default rate limit (200/s, burst 1,000) and be refused.
  const messages = Array.from({ length: cfg.DEFAULT_THRESHOLD * SEED_THRESHOLDS }, () => JSON.parse(cfg.POST_BODY));
  for (const name of channels) await agent.expectOk('POST', `/api/v1/channels/${name}/messages/batch`, { messages });
  await drainSummaries(serviceDb);
}

module.exports = { channelNames, createBaselineChannels, copySlotsToBaseline, seedSummaries };

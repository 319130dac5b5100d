'use strict';
// What the bare baselines and the Nest floor share: the SQL a user would write by hand on the
// service's schema, and the answers' shape (the same JSON as the service's).

const SENDER = 'bench-agent';
const DEFAULT_TYPE = 'STATUS';
const DEFAULT_TOPIC = 'general';

/** seq allocated and row inserted in ONE statement. */
const INSERT_MESSAGE = `
  WITH c AS (UPDATE channels SET last_seq = last_seq + 1 WHERE name = $1 RETURNING id, last_seq)
  INSERT INTO messages (channel_id, seq, type, sender, content, topic)
  SELECT c.id, c.last_seq, $2, $3, $4, $5 FROM c
  RETURNING id, seq, type, sender, content, topic, correlation_id, in_reply_to, target, metadata, created_at`;

/** {messages:[…]}: seqs allocated and every row inserted in ONE multi-row statement (unnest). */
const INSERT_BATCH = `
  WITH input AS (SELECT * FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS t(type, content, topic, ord)),
  c AS (UPDATE channels SET last_seq = last_seq + $5 WHERE name = $1 RETURNING id, last_seq)
  INSERT INTO messages (channel_id, seq, type, sender, content, topic)
  SELECT c.id, c.last_seq - $5 + i.ord, i.type, $6, i.content, i.topic FROM c, input i
  RETURNING id, seq, type, sender, content, topic, correlation_id, in_reply_to, target, metadata, created_at`;

// channels.name is UNIQUE and channel_summaries is keyed by channel_id: two index lookups, one row
// each — the same work the service's read does for a URL that names the channel.
const READ_SUMMARY = `
  SELECT c.name, c.last_seq, s.text, s.annotations, s.covers_through_seq, s.version, s.updated_at, s.updated_by,
         s.last_error, s.last_error_at, c.summariser
  FROM channels c JOIN channel_summaries s ON s.channel_id = c.id WHERE c.name = $1`;

/** The values of INSERT_MESSAGE for a posted body. */
const insertValues = (channel, body) => [channel, body.type ?? DEFAULT_TYPE, SENDER, body.content, body.topic ?? DEFAULT_TOPIC];

/** The values of INSERT_BATCH for a batch's messages. */
function batchValues(channel, messages) {
  const column = (pick) => messages.map(pick);
  return [channel, column((m) => m.type ?? DEFAULT_TYPE), column((m) => m.content), column((m) => m.topic ?? DEFAULT_TOPIC), messages.length, SENDER];
}

/** A message row as the service answers it (bigint seq converted at the edge). */
const messageView = (channel, r) => ({
  id: r.id,
  channel,
  seq: Number(r.seq),
  type: r.type,
  sender: r.sender,
  content: r.content,
  topic: r.topic,
  correlationId: r.correlation_id,
  inReplyTo: r.in_reply_to,
  target: r.target,
  metadata: r.metadata,
  createdAt: r.created_at,
});

/** A READ_SUMMARY row as the service answers it. */
function summaryView(r) {
  const lastSeq = Number(r.last_seq);
  const covers = Number(r.covers_through_seq);
  return {
    channel: r.name,
    text: r.text,
    annotations: r.annotations,
    coversThroughSeq: covers,
    lastSeq,
    pending: lastSeq - covers,
    version: r.version,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by,
    lastError: r.last_error,
    lastErrorAt: r.last_error_at,
    summariser: r.summariser,
  };
}

module.exports = { SENDER, DEFAULT_TYPE, DEFAULT_TOPIC, INSERT_MESSAGE, INSERT_BATCH, READ_SUMMARY, batchValues, insertValues, messageView, summaryView };

'use strict';
// The yardstick: what a user would write by hand on the same stack. Bare Fastify + a `pg` Pool
// of the service's pool size, on a database migrated with the service's own migrations. No
// auth, no validation framework, no logging, no events: the stack's own limit.
//   POST /api/v1/channels/:name/messages  seq allocated and row inserted in ONE statement
//   POST /api/v1/channels/:name/messages/batch  {messages:[…]}: seqs allocated and every row
//                                         inserted in ONE multi-row statement (unnest)
//   GET  /api/v1/channels/:name/summary   the slot read in one indexed statement
// Env: DATABASE_URL, PORT, HOST, POOL_SIZE, PREPARED_STATEMENTS.
//   PREPARED_STATEMENTS unset: `pool.query(text, values)`, as most code written by hand does
//   (Postgres parses and plans every statement); =1: named statements, prepared once per connection
//   and reused (what the service does) — the stack's real limit.
const Fastify = require('fastify');
const { Pool } = require('pg');

const SENDER = 'bench-agent';
const DEFAULT_TYPE = 'STATUS';
const DEFAULT_TOPIC = 'general';

const INSERT_MESSAGE = `
  WITH c AS (UPDATE channels SET last_seq = last_seq + 1 WHERE name = $1 RETURNING id, last_seq)
  INSERT INTO messages (channel_id, seq, type, sender, content, topic)
  SELECT c.id, c.last_seq, $2, $3, $4, $5 FROM c
  RETURNING id, seq, type, sender, content, topic, correlation_id, in_reply_to, target, metadata, created_at`;

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

const PREPARED = process.env.PREPARED_STATEMENTS === '1';
/** A statement for `pool.query`, named (prepared once per connection) when PREPARED. */
const statement = (name, text, values) => (PREPARED ? { name, text, values } : { text, values });

async function main() {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE) });
  const app = Fastify({ logger: false });

  app.get('/health', async () => ({ status: 'ok' }));

  const view = (channel, r) => ({
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

  app.post('/api/v1/channels/:name/messages', async (req, reply) => {
    const b = req.body ?? {};
    if (typeof b.content !== 'string') return reply.code(400).send({ message: 'content must be a string' });
    const { rows } = await pool.query(statement('insert_message', INSERT_MESSAGE, [req.params.name, b.type ?? DEFAULT_TYPE, SENDER, b.content, b.topic ?? DEFAULT_TOPIC]));
    if (rows.length === 0) return reply.code(404).send({ message: 'channel not found' });
    return reply.code(201).send(view(req.params.name, rows[0]));
  });

  app.post('/api/v1/channels/:name/messages/batch', { bodyLimit: 4 * 1024 * 1024 }, async (req, reply) => {
    const messages = req.body?.messages;
    if (!Array.isArray(messages) || messages.some((m) => typeof m?.content !== 'string')) {
      return reply.code(400).send({ message: 'messages must be an array of {content}' });
    }
    const column = (pick) => messages.map(pick);
    const values = [req.params.name, column((m) => m.type ?? DEFAULT_TYPE), column((m) => m.content), column((m) => m.topic ?? DEFAULT_TOPIC), messages.length, SENDER];
    const { rows } = await pool.query(statement('insert_batch', INSERT_BATCH, values));
    if (rows.length === 0) return reply.code(404).send({ message: 'channel not found' });
    rows.sort((a, b) => Number(a.seq) - Number(b.seq));
    return reply.code(201).send({ messages: rows.map((r) => view(req.params.name, r)) });
  });

  app.get('/api/v1/channels/:name/summary', async (req, reply) => {
    const { rows } = await pool.query(statement('read_summary', READ_SUMMARY, [req.params.name]));
    if (rows.length === 0) return reply.code(404).send({ message: 'channel not found' });
    const r = rows[0];
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
  });

  const close = async () => {
    await app.close();
    await pool.end();
    process.exit(0);
  };
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
  await app.listen({ port: Number(process.env.PORT), host: process.env.HOST });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

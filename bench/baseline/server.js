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

const { INSERT_BATCH, INSERT_MESSAGE, READ_SUMMARY, batchValues, insertValues, messageView, summaryView } = require('./bare-sql');

const PREPARED = process.env.PREPARED_STATEMENTS === '1';
/** A statement for `pool.query`, named (prepared once per connection) when PREPARED. */
const statement = (name, text, values) => (PREPARED ? { name, text, values } : { text, values });

async function main() {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE) });
  const app = Fastify({ logger: false });

  app.get('/health', async () => ({ status: 'ok' }));
  // A failed statement invalidates the run (the bench counts non-2xx): say why on stderr.
  app.setErrorHandler((error, _req, reply) => {
    console.error(error.message);
    reply.code(500).send({ message: error.message });
  });

  app.post('/api/v1/channels/:name/messages', async (req, reply) => {
    const b = req.body ?? {};
    if (typeof b.content !== 'string') return reply.code(400).send({ message: 'content must be a string' });
    const { rows } = await pool.query(statement('insert_message', INSERT_MESSAGE, insertValues(req.params.name, b)));
    if (rows.length === 0) return reply.code(404).send({ message: 'channel not found' });
    return reply.code(201).send(messageView(req.params.name, rows[0]));
  });

  app.post('/api/v1/channels/:name/messages/batch', { bodyLimit: 4 * 1024 * 1024 }, async (req, reply) => {
    const messages = req.body?.messages;
    if (!Array.isArray(messages) || messages.some((m) => typeof m?.content !== 'string')) {
      return reply.code(400).send({ message: 'messages must be an array of {content}' });
    }
    const { rows } = await pool.query(statement('insert_batch', INSERT_BATCH, batchValues(req.params.name, messages)));
    if (rows.length === 0) return reply.code(404).send({ message: 'channel not found' });
    rows.sort((a, b) => Number(a.seq) - Number(b.seq));
    return reply.code(201).send({ messages: rows.map((r) => messageView(req.params.name, r)) });
  });

  app.get('/api/v1/channels/:name/summary', async (req, reply) => {
    const { rows } = await pool.query(statement('read_summary', READ_SUMMARY, [req.params.name]));
    if (rows.length === 0) return reply.code(404).send({ message: 'channel not found' });
    return summaryView(rows[0]);
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

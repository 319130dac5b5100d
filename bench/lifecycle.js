#!/usr/bin/env node
'use strict';
// Data lifecycle figures (issue 29, DESIGN §10), on the compiled service (`npx nest build` first):
//   retention  a retention pass over CHANNELS channels of which 1 % are due: the one indexed query
//              per batch (its time per batch), EXPLAIN of it (the partial index, no scan), the pass.
//              Idle channels have retention set too (half never due until a summary, half due later).
//   redaction  a MESSAGES-message channel whose summary covers it all (threshold 20, the newest 50
//              versions in the history): redact a message the history still covers and one older
//              than every kept version; time to the answer, and to the summary replayed to lastSeq.
//   export     GET /channels/{name}/export of MESSAGES messages from a real service process, read
//              to the end, with the service's RSS sampled every RSS_SAMPLE_MS (flat: one page in memory).
// Flags: --channels=N (default 100000), --messages=N (default 100000), --only=retention|redaction|export,
//        --batch=N (QHORUS_RETENTION_BATCH, default the service's), --heap-mb=N (the service's heap
//        cap during the export, default 80; 0: none). Prints JSON on stdout.
require('reflect-metadata');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const cfg = require('./config');
const dist = require('./lib/dist');
const { createDatabase, runMigrations, withClient } = require('./lib/postgres');
const { startService } = require('./lib/servers');
const { runStamp } = require('./lib/stamp');
const { percentile } = require('./lib/stats');

const DEFAULT_SIZE = 100_000;
/** Share of the channels a pass finds due (1 %). */
const DUE_EVERY = 100;
/** A due channel: MESSAGES_PER_DUE messages, a summary version through COVERED, a count bound of KEEP. */
const MESSAGES_PER_DUE = 30;
const COVERED = 20;
const KEEP = 10;
const CONTENT_CHARS = 200;
const RSS_SAMPLE_MS = 100;
const INSERT_CHUNK = 50_000;
/**
 * The service's old-generation cap during the export (--heap-mb; 0: none). V8 grows its heap
 * lazily, so uncapped RSS climbs with the garbage an export makes and says little; under a cap
 * below the export's size, an export that held its messages would run out of memory, and the
 * RSS samples show what it really keeps. The young generation is kept small for the same reason.
 */
const DEFAULT_HEAP_MB = 80;
const SEMI_SPACE_MB = 2;

const flag = (name, fallback) => {
  const arg = process.argv.slice(2).find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
};
const intFlag = (name, fallback) => {
  const value = Number(flag(name, String(fallback)));
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
};
const log = (msg) => process.stderr.write(`${msg}\n`);
const ms = (started) => Number(process.hrtime.bigint() - started) / 1e6;
const path = (p) => join(dist.DIST, p);

async function seedRetention(client, channels) {
  await client.query(
    `INSERT INTO channels (name, summary_threshold, summariser, created_by, last_seq, retention_max_messages, retention_due_at)
     SELECT 'c-' || g, 20, 'heuristic', 'bench', CASE WHEN g % $2::int = 0 THEN $3::int ELSE 0 END, $4::int,
            CASE WHEN g % $2::int = 0 THEN now() - interval '1 second'
                 WHEN g % 2 = 0 THEN now() + random() * interval '30 days' END
     FROM generate_series(1, $1::int) g`,
    [channels, DUE_EVERY, MESSAGES_PER_DUE, KEEP],
  );
  await client.query(
    `INSERT INTO channel_summaries (channel_id, covers_through_seq, version, updated_at, updated_by)
     SELECT id, CASE WHEN last_seq > 0 THEN $1::int ELSE 0 END, CASE WHEN last_seq > 0 THEN 1 ELSE 0 END, now(), 'bench' FROM channels`,
    [COVERED],
  );
  await client.query(
    `INSERT INTO channel_summary_history (channel_id, version, text, annotations, covers_from_seq, covers_through_seq, updated_by)
     SELECT id, 1, 'summary', '{}'::jsonb, 1, $1::int, 'bench' FROM channels WHERE last_seq > 0`,
    [COVERED],
  );
  await client.query(
    `INSERT INTO messages (channel_id, seq, type, sender, content, topic)
     SELECT c.id, g, 'STATUS', 'bench', repeat('x', $2::int), 'general' FROM channels c CROSS JOIN generate_series(1, $1::int) g WHERE c.last_seq > 0`,
    [MESSAGES_PER_DUE, CONTENT_CHARS],
  );
  for (const table of ['channels', 'channel_summaries', 'channel_summary_history', 'messages']) await client.query(`VACUUM ANALYZE ${table}`);
}

async function retention(stamp, channels, batch) {
  const db = await createDatabase(stamp, 'lifecycle_retention');
  try {
    await runMigrations(db.url);
    const seeded = process.hrtime.bigint();
    await withClient(db.url, (client) => seedRetention(client, channels));
    const seedMs = ms(seeded);
    const { Logger } = require('@nestjs/common');
    Logger.overrideLogger(['error']);
    const { Database } = require(path('apps/channel-service/src/database/database.js'));
    const { poolConfig } = require(path('apps/channel-service/src/database/connection.js'));
    const { loadConfig } = dist.require.appConfig();
    const { RetentionRepository, DUE_CHANNELS_SQL } = require(path('apps/channel-service/src/retention/retention.repository.js'));
    const { RetentionSweepService } = require(path('apps/channel-service/src/retention/retention-sweep.service.js'));
    const { AuditLog } = require(path('apps/channel-service/src/audit/audit-log.repository.js'));
    const { RetentionConfig } = require(path('apps/channel-service/src/config/slices/retention-config.js'));
    const config = loadConfig({ DATABASE_URL: db.url, ...(batch ? { QHORUS_RETENTION_BATCH: String(batch) } : {}) });
    const database = Database.open(poolConfig(db.url, 2));
    try {
      const repository = new RetentionRepository();
      const queryMs = [];
      const takeDue = repository.takeDue.bind(repository);
      repository.takeDue = async (tx, limit) => {
        const started = process.hrtime.bigint();
        const due = await takeDue(tx, limit);
        queryMs.push(ms(started));
        return due;
      };
      const service = new RetentionSweepService(database, repository, new AuditLog(database), new RetentionConfig(config));
      const plan = await withClient(db.url, (client) => client.query(`EXPLAIN ${DUE_CHANNELS_SQL}`, [config.QHORUS_RETENTION_BATCH]));
      const started = process.hrtime.bigint();
      const pass = await service.pass();
      const passMs = ms(started);
      const [{ done }] = (await withClient(db.url, (c) => c.query(`SELECT count(*)::int AS done FROM channels WHERE first_seq = $1`, [COVERED + 1]))).rows;
      const planLines = plan.rows.map((r) => r['QUERY PLAN']);
      return {
        channels,
        due: Math.floor(channels / DUE_EVERY),
        batchSize: config.QHORUS_RETENTION_BATCH,
        seedMs: Math.round(seedMs),
        pass: { ...pass, ms: Math.round(passMs) },
        channelsTrimmed: done,
        dueQueryPerBatch: { count: queryMs.length, medianMs: round(percentile(queryMs, 50)), maxMs: round(Math.max(...queryMs)) },
        usesIndex: planLines.some((l) => /channels_retention_due_idx/.test(l)),
        seqScans: planLines.filter((l) => /Seq Scan/.test(l)).map((l) => l.trim()),
        explain: planLines,
      };
    } finally {
      await database.close();
    }
  } finally {
    await db.drop();
  }
}

function rssKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
}

async function exportFigure(stamp, messages, heapMb) {
  const db = await createDatabase(stamp, 'lifecycle_export');
  let service;
  try {
    await runMigrations(db.url);
    await withClient(db.url, async (client) => {
      const { rows: [{ id }] } = await client.query(
        `INSERT INTO channels (name, summary_threshold, summariser, created_by, last_seq) VALUES ('long', 100000000, 'heuristic', 'bench', $1) RETURNING id`,
        [messages],
      );
      await client.query(`INSERT INTO channel_summaries (channel_id) VALUES ($1)`, [id]);
      for (let from = 1; from <= messages; from += INSERT_CHUNK) {
        await client.query(
          `INSERT INTO messages (channel_id, seq, type, sender, content, topic)
           SELECT $1, g, 'STATUS', 'bench', repeat('x', $4::int) || g, 'general' FROM generate_series($2::int, $3::int) g`,
          [id, from, Math.min(messages, from + INSERT_CHUNK - 1), CONTENT_CHARS],
        );
      }
      await client.query('VACUUM ANALYZE messages');
    });
    // In-process queue: the export needs no Redis.
    service = await startService({ databaseUrl: db.url, queuePrefix: `bench-lifecycle-${stamp}`, poolSize: 4, nodeArgs: heapMb > 0 ? [`--max-old-space-size=${heapMb}`, `--max-semi-space-size=${SEMI_SPACE_MB}`] : [], env: { REDIS_URL: '', LOG_LEVEL: 'warn' }, label: 'lifecycle' });
    const idleKb = rssKb(service.pid);
    const samples = [];
    const sampler = setInterval(() => samples.push(rssKb(service.pid)), RSS_SAMPLE_MS);
    const started = process.hrtime.bigint();
    const res = await fetch(`${service.url}/api/v1/channels/long/export`, { headers: { authorization: `Bearer ${cfg.ADMIN_TOKEN}` } });
    if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) lines++;
    }
    const exportMs = ms(started);
    clearInterval(sampler);
    const half = samples.slice(0, Math.ceil(samples.length / 2));
    return {
      messages,
      heapCapMb: heapMb || null,
      lines,
      megabytes: round(bytes / 1e6),
      ms: Math.round(exportMs),
      rssKb: {
        idle: idleKb,
        samples: samples.length,
        firstHalfMax: Math.max(...half),
        max: Math.max(...samples),
        median: percentile(samples, 50),
        growthOverIdle: Math.max(...samples) - idleKb,
      },
    };
  } finally {
    await service?.stop();
    await db.drop();
  }
}

/** The default threshold and history length: the versions a long channel keeps. */
const REDACTION_THRESHOLD = 20;
const REDACTION_HISTORY = 50;
const POLL_MS = 50;

async function redactionFigure(stamp, messages) {
  const db = await createDatabase(stamp, 'lifecycle_redaction');
  let service;
  try {
    await runMigrations(db.url);
    await withClient(db.url, async (client) => {
      const { rows: [{ id }] } = await client.query(
        `INSERT INTO channels (name, summary_threshold, summariser, created_by, last_seq) VALUES ('long', $2, 'heuristic', 'bench', $1) RETURNING id`,
        [messages, REDACTION_THRESHOLD],
      );
      for (let from = 1; from <= messages; from += INSERT_CHUNK) {
        await client.query(
          `INSERT INTO messages (channel_id, seq, type, sender, content, topic)
           SELECT $1, g, 'STATUS', 'bench', repeat('x', $4::int) || g, 'general' FROM generate_series($2::int, $3::int) g`,
          [id, from, Math.min(messages, from + INSERT_CHUNK - 1), CONTENT_CHARS],
        );
      }
      // The newest versions a channel summarised every 20 messages keeps, as the job writes them.
      const versions = messages / REDACTION_THRESHOLD;
      await client.query(
        `INSERT INTO channel_summary_history (channel_id, version, text, annotations, covers_from_seq, covers_through_seq, updated_by)
         SELECT $1, v, 'summary through ' || (v * $2), '{}'::jsonb, (v - 1) * $2 + 1, v * $2, 'bench' FROM generate_series($3::int, $4::int) v`,
        [id, REDACTION_THRESHOLD, versions - REDACTION_HISTORY + 1, versions],
      );
      await client.query(
        `INSERT INTO channel_summaries (channel_id, covers_through_seq, version, text, annotations, updated_at, updated_by) VALUES ($1, $2::int, $3, 'summary through ' || $2::int, '{}'::jsonb, now(), 'bench')`,
        [id, messages, versions],
      );
      await client.query('VACUUM ANALYZE messages');
    });
    service = await startService({ databaseUrl: db.url, queuePrefix: `bench-redaction-${stamp}`, poolSize: 4, env: { REDIS_URL: '', LOG_LEVEL: 'warn' }, label: 'redaction' });
    const headers = { authorization: `Bearer ${cfg.ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const summary = async () => (await fetch(`${service.url}/api/v1/channels/long/summary`, { headers })).json();
    const cases = [
      ['within the kept history', messages - REDACTION_THRESHOLD * 10 - 5],
      ['older than every kept version', Math.floor(messages / 2)],
    ];
    const out = [];
    for (const [where, seq] of cases) {
      const started = process.hrtime.bigint();
      const res = await fetch(`${service.url}/api/v1/channels/long/messages/${seq}/redact`, { method: 'POST', headers, body: JSON.stringify({ reason: 'bench' }) });
      if (res.status !== 200) throw new Error(`redact answered ${res.status}: ${await res.text()}`);
      const answerMs = ms(started);
      const rewound = await summary();
      for (;;) {
        const s = await summary();
        if (s.coversThroughSeq === messages && s.pending === 0 && s.version !== rewound.version) break;
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      // The read right after the answer may already show the replay's first step (in process, it starts at once).
      out.push({ where, seq, answerMs: Math.round(answerMs), replayedMs: Math.round(ms(started)), coversAfterAnswer: rewound.coversThroughSeq });
    }
    return { messages, cases: out };
  } finally {
    await service?.stop();
    await db.drop();
  }
}

const round = (x) => Math.round(x * 100) / 100;

async function main() {
  const only = flag('only', 'retention,redaction,export').split(',');
  const channels = intFlag('channels', DEFAULT_SIZE);
  const messages = intFlag('messages', DEFAULT_SIZE);
  const batch = flag('batch', undefined) === undefined ? undefined : intFlag('batch', 1);
  const heapMb = Number(flag('heap-mb', String(DEFAULT_HEAP_MB)));
  const stamp = runStamp();
  const result = { at: new Date().toISOString() };
  if (only.includes('retention')) {
    log(`retention pass over ${channels} channels…`);
    result.retention = await retention(stamp, channels, batch);
  }
  if (only.includes('redaction')) {
    log(`redaction in a ${messages}-message channel…`);
    result.redaction = await redactionFigure(stamp, messages);
  }
  if (only.includes('export')) {
    log(`export of ${messages} messages…`);
    result.export = await exportFigure(stamp, messages, heapMb);
  }
  return result;
}

if (require.main === module) {
  main().then(
    (result) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}

module.exports = { main };

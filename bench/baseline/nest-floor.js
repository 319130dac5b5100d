'use strict';
// The floor of the stack DESIGN.md fixes, at the service's defaults: NestJS on Fastify, one
// global guard (bearer token looked up in an in-memory cache, as the service's token cache hits),
// the global ValidationPipe with class-validator DTOs (whitelist, forbidNonWhitelisted,
// transform), a pino line per request at info to a file, and the prepared baseline's SQL with
// named statements. No rate limit, no events, no jobs, no summary logic: what any Nest service
// on this stack pays before it does its own work, so the service can be read against it.
// Same routes, bodies and answers as baseline/server.js. Plain JS: decorators applied by hand.
//   POST /api/v1/channels/:name/messages, GET /api/v1/channels/:name/summary
// Env: DATABASE_URL, PORT, HOST, POOL_SIZE, LOG_FILE.
require('reflect-metadata');
const { NestFactory, APP_GUARD } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const { Body, Controller, Get, Injectable, Module, NotFoundException, Param, Post, UnauthorizedException, ValidationPipe } = require('@nestjs/common');
const { IsIn, IsOptional, IsString, MaxLength } = require('class-validator');
const pino = require('pino');
const { Pool } = require('pg');

const SENDER = 'bench-agent';
const DEFAULT_TYPE = 'STATUS';
const DEFAULT_TOPIC = 'general';
const MESSAGE_TYPES = ['QUERY', 'COMMAND', 'RESPONSE', 'STATUS', 'DECLINE', 'HANDOFF', 'DONE', 'FAILURE', 'EVENT'];
const CONTENT_MAX = 32 * 1024;
const TOPIC_MAX = 200;
const BEARER = 'Bearer ';

const INSERT_MESSAGE = `
  WITH c AS (UPDATE channels SET last_seq = last_seq + 1 WHERE name = $1 RETURNING id, last_seq)
  INSERT INTO messages (channel_id, seq, type, sender, content, topic)
  SELECT c.id, c.last_seq, $2, $3, $4, $5 FROM c
  RETURNING id, seq, type, sender, content, topic, correlation_id, in_reply_to, target, metadata, created_at`;
const READ_SUMMARY = `
  SELECT c.name, c.last_seq, s.text, s.annotations, s.covers_through_seq, s.version, s.updated_at, s.updated_by,
         s.last_error, s.last_error_at, c.summariser
  FROM channels c JOIN channel_summaries s ON s.channel_id = c.id WHERE c.name = $1`;

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE) });
const log = pino({ level: 'info' }, pino.destination({ dest: process.env.LOG_FILE ?? 1, sync: false }));

/** Applies TypeScript-style decorators from plain JS. */
const decorateProperty = (cls, key, ...decorators) => decorators.forEach((d) => d(cls.prototype, key));
const decorateMethod = (cls, key, ...decorators) => decorators.forEach((d) => d(cls.prototype, key, Object.getOwnPropertyDescriptor(cls.prototype, key)));
const decorateParam = (cls, key, index, decorator) => decorator(cls.prototype, key, index);

class PostMessageDto {}
decorateProperty(PostMessageDto, 'content', IsString(), MaxLength(CONTENT_MAX));
decorateProperty(PostMessageDto, 'type', IsOptional(), IsIn(MESSAGE_TYPES));
decorateProperty(PostMessageDto, 'topic', IsOptional(), IsString(), MaxLength(TOPIC_MAX));

/** A token cache hit: what the service's guard does for a token it has seen. */
class TokenGuard {
  constructor() {
    this.cache = new Map();
  }
  canActivate(context) {
    const request = context.switchToHttp().getRequest();
    const header = request.headers.authorization;
    if (typeof header !== 'string' || !header.startsWith(BEARER)) throw new UnauthorizedException('missing bearer token');
    const token = header.slice(BEARER.length);
    let agent = this.cache.get(token);
    if (!agent) this.cache.set(token, (agent = { name: SENDER }));
    request.agent = agent;
    return true;
  }
}
Injectable()(TokenGuard);

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

class ChannelsController {
  async post(name, body) {
    const values = [name, body.type ?? DEFAULT_TYPE, SENDER, body.content, body.topic ?? DEFAULT_TOPIC];
    const { rows } = await pool.query({ name: 'insert_message', text: INSERT_MESSAGE, values });
    if (rows.length === 0) throw new NotFoundException('channel not found');
    return view(name, rows[0]);
  }

  async summary(name) {
    const { rows } = await pool.query({ name: 'read_summary', text: READ_SUMMARY, values: [name] });
    if (rows.length === 0) throw new NotFoundException('channel not found');
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
  }
}
Controller('api/v1/channels')(ChannelsController);
decorateMethod(ChannelsController, 'post', Post(':name/messages'));
decorateParam(ChannelsController, 'post', 0, Param('name'));
decorateParam(ChannelsController, 'post', 1, Body());
Reflect.defineMetadata('design:paramtypes', [String, PostMessageDto], ChannelsController.prototype, 'post');
decorateMethod(ChannelsController, 'summary', Get(':name/summary'));
decorateParam(ChannelsController, 'summary', 0, Param('name'));
Reflect.defineMetadata('design:paramtypes', [String], ChannelsController.prototype, 'summary');

class HealthController {
  health() {
    return { status: 'ok' };
  }
}
Controller()(HealthController);
decorateMethod(HealthController, 'health', Get('health'));

class FloorModule {}
Module({ controllers: [ChannelsController, HealthController], providers: [{ provide: APP_GUARD, useClass: TokenGuard }] })(FloorModule);

async function main() {
  const adapter = new FastifyAdapter({ logger: false });
  // One line per request from one onResponse hook, as the service logs (logging/request-log.ts).
  const requestLog = log.child({ context: 'HTTP' });
  adapter.getInstance().addHook('onResponse', (request, reply, done) => {
    done();
    requestLog.info({ req: { id: request.id, method: request.method, url: request.url }, res: { statusCode: reply.statusCode }, responseTime: Math.round(reply.elapsedTime) }, 'request completed');
  });
  const app = await NestFactory.create(FloorModule, adapter, { logger: false });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, stopAtFirstError: false }));
  const close = async () => {
    await app.close();
    await pool.end();
    process.exit(0);
  };
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
  await app.listen(Number(process.env.PORT), process.env.HOST);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

'use strict';
// The floor of the stack DESIGN.md fixes, at the service's defaults: NestJS on Fastify, one
// global guard (bearer token looked up in an in-memory cache, as the service's token cache hits),
// the global ValidationPipe with class-validator DTOs (whitelist, forbidNonWhitelisted,
// transform), a pino line per request at info to a file, and the prepared baseline's SQL with
// named statements. No rate limit, no events, no jobs, no summary logic: what any Nest service
// on this stack pays before it does its own work, so the service can be read against it.
// Same routes, bodies and answers as baseline/server.js. Plain JS: decorators applied by hand.
//   POST /api/v1/channels/:name/messages, POST …/messages/batch (nested DTOs, validated each, and
//   the bare multi-row insert), GET /api/v1/channels/:name/summary
// Env: DATABASE_URL, PORT, HOST, POOL_SIZE, LOG_FILE. Run as a script it listens; required, it exports createFloorApp.
require('reflect-metadata');
const { NestFactory, APP_GUARD } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const { Body, Controller, Get, Injectable, Module, NotFoundException, Param, Post, UnauthorizedException, ValidationPipe } = require('@nestjs/common');
const { ArrayNotEmpty, IsArray, IsIn, IsOptional, IsString, MaxLength, ValidateNested } = require('class-validator');
const { Type } = require('class-transformer');
const pino = require('pino');
const { Pool } = require('pg');
const { INSERT_BATCH, INSERT_MESSAGE, READ_SUMMARY, SENDER, batchValues, insertValues, messageView, summaryView } = require('./bare-sql');

const MESSAGE_TYPES = ['QUERY', 'COMMAND', 'RESPONSE', 'STATUS', 'DECLINE', 'HANDOFF', 'DONE', 'FAILURE', 'EVENT'];
const CONTENT_MAX = 32 * 1024;
const TOPIC_MAX = 200;
const BEARER = 'Bearer ';

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

/** The batch body as any Nest service on this stack validates one: each message a nested DTO. */
class PostBatchDto {}
decorateProperty(PostBatchDto, 'messages', IsArray(), ArrayNotEmpty(), ValidateNested({ each: true }), Type(() => PostMessageDto));

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

class ChannelsController {
  async post(name, body) {
    const { rows } = await pool.query({ name: 'insert_message', text: INSERT_MESSAGE, values: insertValues(name, body) });
    if (rows.length === 0) throw new NotFoundException('channel not found');
    return messageView(name, rows[0]);
  }

  async postBatch(name, body) {
    const { rows } = await pool.query({ name: 'insert_batch', text: INSERT_BATCH, values: batchValues(name, body.messages) });
    if (rows.length === 0) throw new NotFoundException('channel not found');
    rows.sort((a, b) => Number(a.seq) - Number(b.seq));
    return { messages: rows.map((r) => messageView(name, r)) };
  }

  async summary(name) {
    const { rows } = await pool.query({ name: 'read_summary', text: READ_SUMMARY, values: [name] });
    if (rows.length === 0) throw new NotFoundException('channel not found');
    return summaryView(rows[0]);
  }
}
Controller('api/v1/channels')(ChannelsController);
decorateMethod(ChannelsController, 'post', Post(':name/messages'));
decorateParam(ChannelsController, 'post', 0, Param('name'));
decorateParam(ChannelsController, 'post', 1, Body());
Reflect.defineMetadata('design:paramtypes', [String, PostMessageDto], ChannelsController.prototype, 'post');
decorateMethod(ChannelsController, 'postBatch', Post(':name/messages/batch'));
decorateParam(ChannelsController, 'postBatch', 0, Param('name'));
decorateParam(ChannelsController, 'postBatch', 1, Body());
Reflect.defineMetadata('design:paramtypes', [String, PostBatchDto], ChannelsController.prototype, 'postBatch');
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

/** The floor app, initialised but not listening (the feature-cost tool answers it in process). */
async function createFloorApp() {
  const adapter = new FastifyAdapter({ logger: false });
  // One line per request from one onResponse hook, as the service logs (logging/request-log.ts).
  const requestLog = log.child({ context: 'HTTP' });
  adapter.getInstance().addHook('onResponse', (request, reply, done) => {
    done();
    requestLog.info({ req: { id: request.id, method: request.method, url: request.url }, res: { statusCode: reply.statusCode }, responseTime: Math.round(reply.elapsedTime) }, 'request completed');
  });
  const app = await NestFactory.create(FloorModule, adapter, { logger: false });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, stopAtFirstError: false }));
  return app;
}

/** Closes the app and the floor's own pool. */
async function closeFloorApp(app) {
  await app.close();
  await pool.end();
}

async function main() {
  const app = await createFloorApp();
  const close = async () => {
    await closeFloorApp(app);
    process.exit(0);
  };
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
  await app.listen(Number(process.env.PORT), process.env.HOST);
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

module.exports = { createFloorApp, closeFloorApp };

import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { QhorusMetrics } from './qhorus-metrics';

/** Route label for requests that matched no route: one series, not one per scanned URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Times every HTTP request with a Fastify `onResponse` hook, labelled by the route *template*
 * (`/api/v1/channels/:name`), never the raw URL, so cardinality stays bounded. A Fastify hook
 * rather than a Nest interceptor: it also sees 401s, 404s and body-limit rejections.
 */
@Injectable()
export class HttpMetricsHook implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: QhorusMetrics,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return; // not running over HTTP (an application context)
    // Callback style, not async: no promise per request.
    fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      this.metrics.httpDuration.observe(
        { method: request.method, route: request.routeOptions?.url ?? UNMATCHED_ROUTE, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
      done();
    });
  }
}

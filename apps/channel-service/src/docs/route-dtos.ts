import { INestApplication } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { operationId } from './route-access';
import type { DtoClass } from './validation-schema';

/** The DTO classes a handler validates: its whole `@Body()` and whole `@Query()`. */
export interface RouteDtos {
  body?: DtoClass;
  query?: DtoClass;
  /** It reads the query at all (a DTO, or a pipe such as NoQueryPipe that refuses any). */
  readsQuery: boolean;
}

/** Param types that say nothing about the wire (plain `string`, `Object`, …): not DTOs. */
const NOT_DTOS: ReadonlySet<unknown> = new Set([Object, String, Number, Boolean, Array, undefined]);

/**
 * For every handler, keyed by operation id, the DTO classes Nest's ValidationPipe validates its
 * body and query with, read from the same metadata Nest routes with (`@Body()`, `@Query()` and
 * the parameter's declared type). The document's request schemas are then derived from those
 * classes' validation rules (validation-schema.ts), whatever route a feature adds.
 */
export function routeDtosByOperationId(app: INestApplication): Map<string, RouteDtos> {
  const dtos = new Map<string, RouteDtos>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: unknown[]) => unknown) | null;
      if (!controller) continue;
      const proto = controller.prototype as Record<string, unknown>;
      for (const method of Object.getOwnPropertyNames(proto)) {
        if (method === 'constructor' || typeof proto[method] !== 'function') continue;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, { index: number; data?: unknown }>;
        const types = (Reflect.getMetadata('design:paramtypes', proto, method) ?? []) as unknown[];
        const found: RouteDtos = { readsQuery: false };
        for (const [key, arg] of Object.entries(args)) {
          const paramType = Number(key.split(':')[0]);
          const type = types[arg.index];
          const whole = arg.data === undefined && !NOT_DTOS.has(type);
          if (paramType === RouteParamtypes.QUERY) found.readsQuery = true;
          if (!whole) continue;
          if (paramType === RouteParamtypes.BODY) found.body = type as DtoClass;
          if (paramType === RouteParamtypes.QUERY) found.query = type as DtoClass;
        }
        dtos.set(operationId(controller.name, method), found);
      }
    }
  }
  return dtos;
}

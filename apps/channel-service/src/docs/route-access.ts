import { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { ADMIN_ROUTE, PUBLIC_ROUTE } from '../auth/auth.decorators';

export interface RouteAccess {
  public: boolean;
  adminOnly: boolean;
}

/** The operation id of a handler in the document (set explicitly so this mapping holds). */
export const operationId = (controller: string, method: string): string => `${controller}_${method}`;

/**
 * Who may call each handler, read from the same metadata the AuthGuard reads (@Public(),
 * @AdminOnly() on the method or its class), keyed by operation id. The document then states
 * security and the 401/403 answers from the truth, not from a hand-kept list.
 */
export function routeAccessByOperationId(app: INestApplication): Map<string, RouteAccess> {
  const access = new Map<string, RouteAccess>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: unknown[]) => unknown) | null;
      if (!controller) continue;
      const proto = controller.prototype as Record<string, unknown>;
      for (const method of Object.getOwnPropertyNames(proto)) {
        const handler = proto[method];
        if (method === 'constructor' || typeof handler !== 'function') continue;
        const flag = (key: string) => Boolean(Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller));
        access.set(operationId(controller.name, method), { public: flag(PUBLIC_ROUTE), adminOnly: flag(ADMIN_ROUTE) });
      }
    }
  }
  return access;
}

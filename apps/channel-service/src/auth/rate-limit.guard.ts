import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PrincipalRateLimit } from '../rate-limit/principal-rate-limit';
import { TakeResult } from '../rate-limit/token-bucket';
import { TooManyRequestsException } from '../rate-limit/too-many-requests.exception';
import { PUBLIC_ROUTE } from './auth.decorators';
import { Principal } from './principal';

/**
 * Per-principal rate limit, as a global guard that runs right after the AuthGuard.
 *
 * A guard, not an interceptor: any global interceptor puts every request of the service through
 * Nest's RxJS interceptor chain (Observables, AsyncResource binding), which cost more CPU per
 * request than the rest of a summary read (docs/benchmarks.md). Guards run in registration
 * order, so AuthModule registers this guard after its AuthGuard; if that order is ever broken
 * the guard fails loudly instead of silently limiting nobody. Unauthenticated routes (health)
 * carry no principal and are not limited. It lives in auth/, above the rate-limit mechanism it
 * applies, because it keys the limit on the authenticated principal.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: PrincipalRateLimit,
    private readonly reflector: Reflector,
  ) {}

  canActivate(ctx: ExecutionContext): boolean | Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const principal: Principal | undefined = ctx.switchToHttp().getRequest().principal;
    if (!principal) {
      if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [ctx.getHandler(), ctx.getClass()])) return true;
      throw new Error('RateLimitGuard ran before AuthGuard: AuthModule must register AuthGuard first');
    }
    const decision = this.limiter.take(`${principal.kind}:${principal.name}`);
    // Most requests are decided here and now; only a request that needs a new lease waits.
    return decision instanceof Promise ? decision.then((d) => allow(principal.name, d)) : allow(principal.name, decision);
  }
}

function allow(principal: string, decision: TakeResult): true {
  if (!decision.allowed) throw new TooManyRequestsException(principal, decision.retryAfterSeconds);
  return true;
}

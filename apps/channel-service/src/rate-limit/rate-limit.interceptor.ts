import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { Principal } from '../auth/principal';
import { RateLimiter } from './rate-limiter';
import { TooManyRequestsException } from './too-many-requests.exception';

/**
 * Per-principal rate limit. An interceptor rather than a guard because Nest runs interceptors
 * after every guard: the AuthGuard has set `request.principal` by then, whatever order the global
 * guards were registered in. Unauthenticated routes (health) carry no principal and are not limited.
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  constructor(private readonly limiter: RateLimiter) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const principal: Principal | undefined = ctx.switchToHttp().getRequest().principal;
    if (principal) {
      const decision = this.limiter.take(`${principal.kind}:${principal.name}`);
      if (!decision.allowed) throw new TooManyRequestsException(principal.name, decision.retryAfterSeconds);
    }
    return next.handle();
  }
}

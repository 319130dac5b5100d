import { CanActivate, ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ADMIN_ROUTE, PUBLIC_ROUTE } from './auth.decorators';
import { AuthService, UNKNOWN_ADDRESS } from './auth.service';
import { bearerToken } from './bearer';
import { BearerChallengeException } from './bearer-challenge';
import { isAdmin } from './principal';

/** Global guard: every route needs a bearer token unless marked @Public(). */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const request = ctx.switchToHttp().getRequest();
    const token = bearerToken(request.headers?.authorization);
    const address: string = request.ip ?? UNKNOWN_ADDRESS;
    if (!token) {
      this.auth.missingToken(address); // 429 instead once the address is over its failure limit
      throw new BearerChallengeException('Missing bearer token: send Authorization: Bearer <token>', false);
    }
    const principal = await this.auth.authenticate(token, address);
    if (!principal) throw new BearerChallengeException('Unknown or revoked token', true);
    if (this.reflector.getAllAndOverride<boolean>(ADMIN_ROUTE, targets) && !isAdmin(principal)) {
      throw new ForbiddenException('This route needs the admin token');
    }
    request.principal = principal;
    return true;
  }
}

import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { Principal } from './principal';

export const PUBLIC_ROUTE = 'qhorus:public';
export const ADMIN_ROUTE = 'qhorus:admin';

/** No token needed (health). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
/** Only the admin token may call this route. */
export const AdminOnly = () => SetMetadata(ADMIN_ROUTE, true);

/** The authenticated caller, set on the request by the AuthGuard. */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal => ctx.switchToHttp().getRequest().principal,
);

import { UnauthorizedException } from '@nestjs/common';

/** The protection space the bearer challenge names (RFC 6750 §3). */
export const AUTH_REALM = 'qhorus';

/**
 * 401 with the challenge RFC 9110 §11.6.1 requires: `WWW-Authenticate: Bearer realm="qhorus"`,
 * plus `error="invalid_token"` when a token was sent but is not valid (RFC 6750 §3.1). MCP
 * clients read it to know how to authenticate. ApiErrorFilter copies `headers` onto the reply.
 */
export class BearerChallengeException extends UnauthorizedException {
  readonly headers: Record<string, string>;

  constructor(message: string, tokenSent: boolean) {
    super(message);
    const error = tokenSent ? `, error="invalid_token", error_description="${message.replace(/["\\]/g, '')}"` : '';
    this.headers = { 'www-authenticate': `Bearer realm="${AUTH_REALM}"${error}` };
  }
}

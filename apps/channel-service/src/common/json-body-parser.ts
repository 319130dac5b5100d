import { BadRequestException, UnsupportedMediaTypeException } from '@nestjs/common';
import { isUtf8 } from 'node:buffer';
import secureJson from 'secure-json-parse';

const JSON_CONTENT_TYPE = 'application/json';
/** Fastify's default parser for plain text, removed: every body of this API is JSON. */
const TEXT_CONTENT_TYPE = 'text/plain';
/** Fastify's key for "any content type no other parser takes". */
const ANY_OTHER_CONTENT_TYPE = '*';
/** What secure-json-parse refuses: keys that would reach an object's prototype when assigned. */
const PROTO_KEY = /"__proto__"\s*:/;
/** The charset parameter of a Content-Type (RFC 9110 §8.3.2), quoted or not. */
const CHARSET_PARAM = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;
/** JSON is UTF-8 (RFC 8259 §8.1); these name it. */
const UTF8_NAMES = new Set(['utf-8', 'utf8']);
/** The only Content-Encoding taken: none (the API does not decompress bodies). */
const IDENTITY_ENCODING = 'identity';

/** A request body that is not JSON (or is a JSON text this API refuses); the MCP route answers it as a JSON-RPC parse error. */
export class InvalidJsonBodyException extends BadRequestException {}

interface BodyRequest {
  headers: Record<string, string | string[] | undefined>;
}

/**
 * The little of Fastify used here, typed structurally (see request-hardening.ts).
 * The body arrives as bytes within the route's body limit (so Content-Length is checked against
 * the bytes sent, and bytes that are not UTF-8 are refused, not turned into U+FFFD).
 */
interface ParserHost {
  removeContentTypeParser(contentType: string): unknown;
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer' },
    parser: (request: BodyRequest, body: Buffer, done: (err: Error | null, value?: unknown) => void) => void,
  ): unknown;
  addContentTypeParser(contentType: string, parser: (request: unknown, payload: unknown, done: (err: Error | null, value?: unknown) => void) => void): unknown;
}

/**
 * The API's only body parser: Fastify's JSON parser (secure-json-parse, prototype keys refused), with errors that say what is
 * wrong: where the JSON breaks, or which key is refused. Fastify's own answers "Body is not valid
 * JSON" for both, so a client sending `{"__proto__": …}` was told its valid JSON was invalid.
 */
export function registerJsonBodyParser(fastify: ParserHost): void {
  fastify.removeContentTypeParser(JSON_CONTENT_TYPE);
  fastify.removeContentTypeParser(TEXT_CONTENT_TYPE);
  // Any other body is a 415 through the API's error handler (Fastify's own 415 bypasses it).
  fastify.addContentTypeParser(ANY_OTHER_CONTENT_TYPE, (_request, _payload, done) =>
    done(new UnsupportedMediaTypeException(`Unsupported Media Type: send the body as ${JSON_CONTENT_TYPE}`)),
  );
  fastify.addContentTypeParser(JSON_CONTENT_TYPE, { parseAs: 'buffer' }, (request, bytes, done) => {
    const unsupported = unsupportedFraming(request.headers);
    if (unsupported) return done(new UnsupportedMediaTypeException(unsupported));
    // No body, only the header (many clients send it on every request): as if no body was sent.
    if (bytes.length === 0) return done(null, undefined);
    if (!isUtf8(bytes)) return done(new InvalidJsonBodyException('Body is not valid UTF-8 (JSON must be sent as UTF-8)'));
    const body = bytes.toString('utf8');
    let value: unknown;
    try {
      value = secureJson.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch (err) {
      return done(new InvalidJsonBodyException(jsonErrorMessage(body, err as Error)));
    }
    // Validation reads a null body as no body at all ({}); every body of this API is an object or an array.
    done(value === null ? new InvalidJsonBodyException('Body must be a JSON object, not null') : null, value);
  });
}

/** Why a JSON body cannot be read as sent: a charset other than UTF-8, or a compressed body. */
function unsupportedFraming(headers: BodyRequest['headers']): string | null {
  const type = String(headers['content-type'] ?? '');
  // Most requests say exactly `application/json`: no parameter to read.
  const charset = type === JSON_CONTENT_TYPE ? undefined : CHARSET_PARAM.exec(type)?.[1].toLowerCase();
  if (charset !== undefined && !UTF8_NAMES.has(charset)) return `Unsupported Media Type: charset ${charset} is not supported; send the JSON body as UTF-8`;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && String(encoding).trim().toLowerCase() !== IDENTITY_ENCODING) {
    return `Unsupported Media Type: Content-Encoding ${String(encoding)} is not supported; send the body uncompressed`;
  }
  return null;
}

function jsonErrorMessage(body: string, err: Error): string {
  if (!err.message.includes('forbidden prototype property')) return `Body is not valid JSON: ${err.message}`;
  const key = PROTO_KEY.test(body) ? '"__proto__"' : '"constructor" holding "prototype"';
  return `Body may not contain the key ${key} (at any depth)`;
}

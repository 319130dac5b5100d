import { BadRequestException, UnsupportedMediaTypeException } from '@nestjs/common';
import secureJson from 'secure-json-parse';

const JSON_CONTENT_TYPE = 'application/json';
/** Fastify's default parser for plain text, removed: every body of this API is JSON. */
const TEXT_CONTENT_TYPE = 'text/plain';
/** Fastify's key for "any content type no other parser takes". */
const ANY_OTHER_CONTENT_TYPE = '*';
/** What secure-json-parse refuses: keys that would reach an object's prototype when assigned. */
const PROTO_KEY = /"__proto__"\s*:/;

/** A request body that is not JSON (or is a JSON text this API refuses); the MCP route answers it as a JSON-RPC parse error. */
export class InvalidJsonBodyException extends BadRequestException {}

/**
 * The little of Fastify used here, typed structurally (see request-hardening.ts).
 * The body arrives as a string within the route's body limit, as with Fastify's own parser.
 */
interface ParserHost {
  removeContentTypeParser(contentType: string): unknown;
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'string' },
    parser: (request: unknown, body: string, done: (err: Error | null, value?: unknown) => void) => void,
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
  fastify.addContentTypeParser(JSON_CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    // No body, only the header (many clients send it on every request): as if no body was sent.
    if (body.length === 0) return done(null, undefined);
    try {
      done(null, secureJson.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      done(new InvalidJsonBodyException(jsonErrorMessage(body, err as Error)));
    }
  });
}

function jsonErrorMessage(body: string, err: Error): string {
  if (!err.message.includes('forbidden prototype property')) return `Body is not valid JSON: ${err.message}`;
  const key = PROTO_KEY.test(body) ? '"__proto__"' : '"constructor" holding "prototype"';
  return `Body may not contain the key ${key} (at any depth)`;
}

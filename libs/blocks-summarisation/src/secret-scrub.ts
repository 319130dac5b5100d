/** What stands for a secret in an error text. */
export const REDACTED = '[redacted]';

/**
 * Provider API keys, whoever's: never repeated from an answer (logs and `lastError` are read by
 * others). Anthropic `sk-ant-…`; OpenAI and most OpenAI-compatible servers `sk-…` (project keys
 * `sk-proj-…`), long enough not to catch ordinary words.
 */
const KEY_SHAPES = [/sk-ant-[\w-]+/g, /sk-[\w-]{20,}/g];

/** `text` with `secret` (this client's key) and anything shaped like a provider key replaced by REDACTED. */
export function withoutSecret(text: string, secret: string | null | undefined): string {
  let scrubbed = secret ? text.split(secret).join(REDACTED) : text;
  for (const shape of KEY_SHAPES) scrubbed = scrubbed.replace(shape, REDACTED);
  return scrubbed;
}

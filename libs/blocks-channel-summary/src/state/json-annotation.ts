/**
 * Tolerant readers for annotation values. Annotations may come from another tier, another
 * version or a manual edit: a malformed value reads as empty instead of failing the summary.
 */

export type JsonObject = Record<string, unknown>;

function parse(value: string | undefined): unknown {
  if (value === undefined || value === '') return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** A JSON array annotation; anything else (missing, malformed, not an array) reads as []. */
export function readJsonArray(value: string | undefined): unknown[] {
  const parsed = parse(value);
  return Array.isArray(parsed) ? parsed : [];
}

/** A JSON object annotation; anything else reads as {}. */
export function readJsonObject(value: string | undefined): JsonObject {
  const parsed = parse(value);
  return isObject(parsed) ? parsed : {};
}

/** A non-negative integer annotation; anything else reads as 0. */
export function readCount(value: string | undefined): number {
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

/** An ISO 8601 annotation as epoch ms; anything unparseable reads as NaN. */
export function readInstantMs(value: string | undefined): number {
  return value ? Date.parse(value) : NaN;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asNullableString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function asSeq(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

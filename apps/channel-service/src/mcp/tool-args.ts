import { AsyncLocalStorage } from 'node:async_hooks';
import { BadRequestException } from '@nestjs/common';
import { badTextException, findBadText } from '../common/json-text';
import { queryInt } from '../common/query-transforms';
import { apiValidationPipe, validationMessage } from '../common/validation.pipe';

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array';

/**
 * One argument's JSON Schema as agents see it in `tools/list`, in the portable subset strict
 * function-calling dialects accept (OpenAI strict mode, Gemini): one `type` (never a list, never
 * with null), `items` on every array, no free-form object.
 */
export interface ArgSchema {
  type: JsonType;
  description?: string;
  items?: ArgSchema;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
}

/** A tool's input schema: a closed object (unknown arguments are refused by name, see toDto). */
export interface ToolInputSchema {
  type: 'object';
  properties: Record<string, ArgSchema>;
  required?: string[];
  additionalProperties: false;
}

interface ArgSpec {
  type: JsonType;
  /** Left out where the name says it all: every description is paid for in every agent's context. */
  description?: string;
  /** Extra keywords shown to agents (items, enum, minimum …). */
  schema?: Omit<ArgSchema, 'type' | 'description'>;
}

interface DeclaredArg {
  schema: ArgSchema;
  optional: boolean;
}

/**
 * A tool argument: what `tools/list` advertises. Values are not checked against it here on purpose:
 * the REST DTO is the one validator, so a bad argument gets exactly the REST error message (see `toDto`).
 */
const declared = ({ type, description, schema }: ArgSpec, optional: boolean): DeclaredArg => ({
  optional,
  schema: { type, ...(description === undefined ? {} : { description }), ...schema },
});

export const required = (spec: ArgSpec) => declared(spec, false);
export const optional = (spec: ArgSpec) => declared(spec, true);

/** A tool's input schema from its arguments: closed, `required` naming the arguments that are. */
export function toolInput(shape: Record<string, DeclaredArg>): ToolInputSchema {
  const properties = Object.fromEntries(Object.entries(shape).map(([arg, { schema }]) => [arg, schema]));
  const needed = Object.keys(shape).filter((arg) => !shape[arg].optional);
  return { type: 'object', properties, ...(needed.length > 0 ? { required: needed } : {}), additionalProperties: false };
}

/**
 * The one rule for integer arguments, for every tool: an argument declared 'integer' may also come
 * as a string of decimal digits ("5", "-3"; not "5.0", " 5" or "1e3"), as agents often send
 * numbers, and is converted to its number here, before any DTO sees it: the rule REST applies to
 * query parameters (queryInt). Anything else is left as sent, so the DTO's own checks (integer,
 * range) refuse it naming the argument. Runs on every tool call, before the tool.
 */
export function withIntegerArgs(input: ToolInputSchema, args: ToolArgs): ToolArgs {
  const converted: ToolArgs = { ...args };
  for (const [arg, schema] of Object.entries(input.properties)) {
    if (schema.type === 'integer' && arg in converted) converted[arg] = queryInt({ value: converted[arg] });
  }
  return converted;
}

export const CHANNEL_ARG = required({ type: 'string' });

export type ToolArgs = Record<string, unknown>;

const pipe = apiValidationPipe();

/** Runs plain values through a REST DTO with the REST pipe: same rules, same error messages. */
export function validateDto<T extends object>(dto: new () => T, plain: ToolArgs): Promise<T> {
  return pipe.transform(plain, { type: 'body', metatype: dto, data: '' });
}

/**
 * Maps snake_case tool arguments onto a DTO's fields (`renames`: argument → field; several
 * arguments may name one field as aliases) and validates them with the REST pipe. Arguments the
 * tool does not declare are refused by name, as REST refuses unknown body fields. `omit` lists
 * arguments the tool handles itself (channel, idempotency_key).
 */
export async function toDto<T extends object>(dto: new () => T, args: ToolArgs, renames: Record<string, string>, omit: string[] = []): Promise<T> {
  const { plain, from } = renameArgs(args, renames, omit);
  // Field → argument: the one the caller sent, else the first declared (a missing argument is named too).
  const names: Record<string, string> = {};
  for (const [arg, field] of Object.entries(renames)) names[field] ??= arg;
  Object.assign(names, from);
  const call = argumentNamesOfCall.getStore();
  if (call) for (const [field, arg] of Object.entries(names)) call.set(field, arg);
  try {
    return await validateDto(dto, plain);
  } catch (err) {
    throw inArgumentNames(err, names);
  }
}

/** Field → argument names of the DTOs the current tool call validated (see inToolArguments). */
const argumentNamesOfCall = new AsyncLocalStorage<Map<string, string>>();

/**
 * Runs one tool call so that a 400 raised after validation (by a service: a seq past the
 * channel's last, a budget rule) names the tool's arguments too, as the validation's own do:
 * every toDto of the call records its field → argument names.
 */
export async function inToolArguments<T>(run: () => Promise<T>): Promise<T> {
  const names = new Map<string, string>();
  try {
    return await argumentNamesOfCall.run(names, run);
  } catch (err) {
    throw names.size > 0 ? inArgumentNames(err, Object.fromEntries(names)) : err;
  }
}

/** For tools without arguments beyond `handled`: refuses any other by name. */
export function noArgs(args: ToolArgs, handled: string[] = []): void {
  renameArgs(args, {}, handled);
}

interface ValidationDetail {
  field: string;
  problems: string[];
}

/**
 * The REST pipe's 400 spoken in the tool's own argument names (`update_after_messages`, not
 * `summaryThreshold`): an agent is told about the argument it sent. `from` maps field → argument.
 */
function inArgumentNames(err: unknown, from: Record<string, string>): unknown {
  if (!(err instanceof BadRequestException)) return err;
  const body = err.getResponse() as { message?: unknown; details?: ValidationDetail[] };
  if (!Array.isArray(body.details)) return err;
  const renamed = new Map<string, string>();
  const details = body.details.map(({ field, problems }) => {
    const [head, ...rest] = field.split('.');
    const arg = from[head] ?? head;
    if (arg !== head) renamed.set(head, arg);
    return { field: [arg, ...rest].join('.'), problems: problems.map((p) => (p.startsWith(`${head} `) ? `${arg}${p.slice(head.length)}` : p)) };
  });
  if (renamed.size === 0) return err;
  // A service's message is its own sentence ("inReplyTo 9 refers to …"): the field's name is replaced in it, word for word.
  const own = typeof body.message === 'string' && body.message !== validationMessage(body.details) ? body.message : null;
  const message = own === null ? validationMessage(details) : [...renamed].reduce((text, [head, arg]) => text.replace(new RegExp(`\\b${head}\\b`, 'g'), arg), own);
  return new BadRequestException({ message, details });
}

function renameArgs(args: ToolArgs, renames: Record<string, string>, omit: string[] = []): { plain: ToolArgs; from: Record<string, string> } {
  const bad = findBadText(args);
  if (bad) throw badTextException(bad);
  const plain: ToolArgs = {};
  const from: Record<string, string> = {};
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (omit.includes(key) || value === undefined) continue;
    const field = renames[key];
    if (!field) {
      unknown.push(key);
      continue;
    }
    if (field in plain && plain[field] !== value) throw invalid(field, `give ${from[field]} or ${key}, not both`);
    plain[field] = value;
    from[field] = key;
  }
  if (unknown.length > 0) {
    const details = unknown.map((field) => ({ field, problems: [`property ${field} should not exist`] }));
    throw new BadRequestException({ message: validationMessage(details), details });
  }
  return { plain, from };
}

function invalid(field: string, problem: string): BadRequestException {
  return new BadRequestException({ message: `Invalid request: ${problem}`, details: [{ field, problems: [problem] }] });
}

/** The `channel` argument every channel tool takes (REST has it in the path). */
export function channelArg(args: ToolArgs): string {
  const channel = args.channel;
  if (typeof channel !== 'string' || channel.length === 0) throw invalid('channel', 'channel must be the name of a channel');
  return channel;
}

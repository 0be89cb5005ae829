/** Request helpers shared by the routes: raw bodies, JSON bodies, query parameters. */
import type { FastifyRequest } from 'fastify';
import { ApiError, Errors } from '../../shared/errors.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../../limits.js';
import type { PipelineDescr } from '../manager.js';
import { clockConfigError } from '../../shared/clock.js';

export function rawBody(req: FastifyRequest): string {
  const b = req.body as Buffer | string | undefined | null;
  if (b === undefined || b === null) return '';
  return typeof b === 'string' ? b : b.toString('utf8');
}

/** The JSON body, or null when there is none (clients send `null` or nothing on action endpoints). */
export function jsonBody(req: FastifyRequest): unknown {
  const text = jsonBodyText(req);
  return text === null ? null : JSON.parse(text);
}

/**
 * The JSON body's text once it is known to be JSON (nesting and syntax checked as jsonBody checks them), or null
 * when there is none: for a body read again where its numbers must keep every digit (engine parseJsonText).
 */
export function jsonBodyText(req: FastifyRequest): string | null {
  const text = rawBody(req).trim();
  if (text === '') return null;
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw Errors.badBody(`Json deserialize error: the body nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`);
  try {
    JSON.parse(text);
    return text;
  } catch (err) {
    throw Errors.badBody(`Json deserialize error: ${(err as Error).message}`);
  }
}

export type Query = Record<string, string | string[] | undefined>;

export function param(q: Query, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** A query parameter that does not deserialize: 400 with the manager's wording (`Query deserialize error: ...`). */
export function queryError(reason: string, param: string, value: string): ApiError {
  return new ApiError(400, 'InvalidQueryParameter', `Query deserialize error: ${reason}`, { param, value });
}

/**
 * A closed set of values for a query parameter (a serde enum): `dflt` when absent; one of `values`, else 400
 * ``unknown variant `X`, expected `a` or `b` ``; given twice, 400 ``duplicate field `name` ``.
 */
export function enumParam<T extends string>(q: Query, name: string, values: readonly T[], dflt: T): T {
  const v = q[name];
  if (v === undefined) return dflt;
  if (Array.isArray(v)) throw queryError(`duplicate field \`${name}\``, name, v.join(','));
  if ((values as readonly string[]).includes(v)) return v as T;
  const expected = values.map((x) => `\`${x}\``);
  const list = expected.length > 1 ? `${expected.slice(0, -1).join(', ')} or ${expected.at(-1)}` : expected[0];
  throw queryError(`unknown variant \`${v}\`, expected ${list}`, name, v);
}

const HEX = /^[0-9a-fA-F]$/;
const GROUP_LENGTHS = [8, 4, 4, 4, 12];

/**
 * A UUID in the forms Rust's `Uuid::from_str` takes (hyphenated, simple 32 digits, `{...}` or `urn:uuid:...`),
 * as its lower-case hyphenated form, or why not (in the uuid crate's words).
 */
export function parseUuid(text: string): { uuid: string } | { error: string } {
  let body = text;
  let offset = 0;
  if (body.startsWith('urn:uuid:')) {
    body = body.slice(9);
    offset = 9;
  } else if (body.startsWith('{') && body.endsWith('}') && body.length >= 2) {
    body = body.slice(1, -1);
    offset = 1;
  }
  const chars = [...body];
  const bad = chars.findIndex((c) => c !== '-' && !HEX.test(c));
  if (bad >= 0) return { error: `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${chars[bad]}\` at ${bad + offset + 1}` };
  const groups = body.split('-');
  if (groups.length === 1) {
    if (body.length !== 32) return { error: `invalid length: expected length 32 for simple format, found ${body.length}` };
    const h = body.toLowerCase();
    return { uuid: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}` };
  }
  if (groups.length !== 5) return { error: `invalid group count: expected 5, found ${groups.length}` };
  for (let i = 0; i < 5; i++) {
    if (groups[i]!.length !== GROUP_LENGTHS[i]) return { error: `invalid group length in group ${i}: expected ${GROUP_LENGTHS[i]}, found ${groups[i]!.length}` };
  }
  return { uuid: body.toLowerCase() };
}

export function boolParam(q: Query, name: string, dflt: boolean): boolean {
  const v = param(q, name);
  if (v === undefined || v === '') return dflt;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw Errors.badParam(name, v, "'true' or 'false'");
}

export function intParam(q: Query, name: string, dflt: number): number {
  const v = param(q, name);
  if (v === undefined || v === '') return dflt;
  if (!/^-?\d+$/.test(v)) throw Errors.badParam(name, v, 'an integer');
  return Number(v);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A pipeline descriptor from a PUT/POST body; `name` defaults to the URL's, other fields to empty values. */
export function parseDescr(body: unknown, urlName: string | undefined): PipelineDescr {
  if (!isObject(body)) throw Errors.badBody('Json deserialize error: expected a JSON object with the pipeline fields');
  const name = body.name === undefined ? urlName : body.name;
  if (typeof name !== 'string') throw Errors.badBody("Json deserialize error: field 'name' must be a string");
  if (typeof body.program_code !== 'string')
    throw Errors.badBody(body.program_code === undefined ? 'Json deserialize error: missing field `program_code`' : "Json deserialize error: field 'program_code' must be a string");
  const description = body.description ?? '';
  if (typeof description !== 'string') throw Errors.badBody("Json deserialize error: field 'description' must be a string");
  const runtime_config = body.runtime_config ?? {};
  if (!isObject(runtime_config)) throw Errors.badBody("Json deserialize error: field 'runtime_config' must be an object");
  checkRuntimeConfig(runtime_config);
  const program_config = body.program_config ?? {};
  if (!isObject(program_config)) throw Errors.badBody("Json deserialize error: field 'program_config' must be an object");
  checkProgramConfig(program_config);
  return { name, description, runtime_config, program_code: body.program_code, program_config };
}

export function parsePatch(body: unknown): Partial<PipelineDescr> {
  if (!isObject(body)) throw Errors.badBody('Json deserialize error: expected a JSON object');
  const out: Partial<PipelineDescr> = {};
  for (const k of ['name', 'description', 'program_code'] as const) {
    if (body[k] === undefined || body[k] === null) continue; // null: left as it is (Feldera's Option fields)
    if (typeof body[k] !== 'string') throw Errors.badBody(`Json deserialize error: field '${k}' must be a string`);
    out[k] = body[k] as string;
  }
  for (const k of ['runtime_config', 'program_config'] as const) {
    if (body[k] === undefined || body[k] === null) continue; // null: left as it is (Feldera's Option fields)
    if (!isObject(body[k])) throw Errors.badBody(`Json deserialize error: field '${k}' must be an object`);
    out[k] = body[k] as Record<string, unknown>;
  }
  if (out.runtime_config) checkRuntimeConfig(out.runtime_config);
  if (out.program_config) checkProgramConfig(out.program_config);
  return out;
}

/** Our own setting `output_case` takes 'upper' or 'lower' (null or absent: 'upper'); anything else would be silently ignored. */
function checkProgramConfig(pc: Record<string, unknown>): void {
  const v = pc.output_case;
  if (v !== undefined && v !== null && v !== 'upper' && v !== 'lower')
    throw Errors.badBody(`Json deserialize error: field 'program_config.output_case' must be "upper" or "lower", not ${JSON.stringify(v)}`);
}

function checkRuntimeConfig(rc: Record<string, unknown>): void {
  if (rc.workers !== undefined && (typeof rc.workers !== 'number' || !Number.isInteger(rc.workers) || rc.workers < 1 || rc.workers > 1024))
    throw Errors.badBody("Json deserialize error: field 'runtime_config.workers' must be an integer between 1 and 1024");
  const resources = rc.resources;
  if (resources !== undefined && resources !== null && !isObject(resources)) throw Errors.badBody("Json deserialize error: field 'runtime_config.resources' must be an object");
  const mem = isObject(resources) ? resources.memory_mb_max : undefined;
  if (mem !== undefined && mem !== null && (typeof mem !== 'number' || !Number.isInteger(mem) || mem < 1 || mem > 1_048_576))
    throw Errors.badBody("Json deserialize error: field 'runtime_config.resources.memory_mb_max' must be null or a whole number of MiB between 1 and 1048576");
  const clock = clockConfigError(rc);
  if (clock !== null) throw Errors.badBody(`Json deserialize error: ${clock}`);
}

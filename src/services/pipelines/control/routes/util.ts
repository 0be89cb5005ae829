/**
 * Request helpers shared by the routes: raw bodies, JSON bodies, query parameters, as the manager reads them
 * (its words: `Json deserialize error: ...`, `Query deserialize error: ...`). The declarations (bodies.ts,
 * query-fields.ts, io-queries.ts) are built of these readers; a route reads its input through them.
 * (services/limits.ts's parseJsonBody does the same depth-then-parse job in the other services' words.)
 */
import type { FastifyRequest } from 'fastify';
import { FelderaError, Errors } from '../../shared/errors.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../../limits.js';

/** The body's bytes as text ('' when there is none): the service hands every body over unparsed. */
export function bodyText(raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  return typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw);
}

export const rawBody = (req: FastifyRequest): string => bodyText(req.body);

/** A body parsed as JSON, or null when there is none (clients send `null` or nothing on action endpoints). */
export function jsonOfBody(raw: unknown): unknown {
  const text = checkedJsonText(raw);
  return text === null ? null : JSON.parse(text);
}

/**
 * The JSON body's text once it is known to be JSON (nesting and syntax checked as jsonBody checks them), or null
 * when there is none: for a body read again where its numbers must keep every digit (engine parseJsonText).
 */
export const jsonBodyText = (req: FastifyRequest): string | null => checkedJsonText(req.body);

function checkedJsonText(raw: unknown): string | null {
  const text = bodyText(raw).trim();
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
export function queryError(reason: string, param: string, value: string): FelderaError {
  return new FelderaError(400, 'InvalidQueryParameter', `Query deserialize error: ${reason}`, { param, value });
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

/**
 * Functions with a lambda argument (Feldera docs/sql/array.md, json.md): TRANSFORM(array, x -> expr),
 * ARRAY_EXISTS(array, x -> condition), and over VARIANTs VARIANT_FILTER / VARIANT_MAP ((key, value) -> ...,
 * both VARIANTs) and VARIANT_DEEP_FILTER / VARIANT_DEEP_MAP ((path, value) -> ..., the path a VARCHAR such as
 * a.b[2]."x.y"). The lambda body is bound in the caller's scope plus one column per parameter (which hides a
 * column of the same name), placed after the row's last column; each call evaluates the body on the row
 * extended by the parameters' values.
 */
import { SqlError, type Expr } from '../../parse/ast.js';
import type { JsonValue } from '../../json-value.js';
import { mk, withNull, type SqlType } from '../../types/types.js';
import type { Row, Value } from '../../types/values.js';
import { canonicalJson, isJsonObject as isObj, variantValue } from '../../types/variant.js';
import type { BExpr } from '../bexpr.js';
import { canon, Scope } from '../scope.js';
import type { BindCtx } from '../bind-ctx.js';
import { toVariantText } from '../cast.js';
import { arr, typeErr } from './args.js';
import { pathKey } from './json.js';

type Obj = Record<string, JsonValue>;
const join = (path: string | null, k: string): string => (path === null ? pathKey(k) : `${path}.${pathKey(k)}`);
const at = (path: string | null, i: number): string => `${path ?? ''}[${i + 1}]`;

/** A lambda call bound: its first argument, its body, and the body called on a row with the parameters' values. */
interface BoundLambda {
  name: string;
  /** The first argument (an ARRAY, or a VARIANT for the VARIANT_ functions). */
  arg: BExpr;
  body: BExpr;
  /** Where the lambda stands (its errors). */
  pos: Expr['pos'];
  call(row: Row, ...params: Value[]): Value;
  /** The body's value as the JSON it is as a VARIANT. */
  asVariant(v: Value): JsonValue;
}

/** Each lambda function: its lambda's number of parameters and what it computes. */
const LAMBDA_FNS: Record<string, { arity: number; build: (l: BoundLambda) => BExpr }> = {
  TRANSFORM: { arity: 1, build: transform },
  ARRAY_EXISTS: { arity: 1, build: arrayExists },
  VARIANT_FILTER: { arity: 2, build: variantFilter },
  VARIANT_MAP: { arity: 2, build: variantMap },
  VARIANT_DEEP_FILTER: { arity: 2, build: variantDeepFilter },
  VARIANT_DEEP_MAP: { arity: 2, build: variantDeepMap },
};

/** `bindExpr` is passed in by expr.ts (which calls this), so that the two modules do not import each other. */
export function bindLambdaCall(e: Expr & { k: 'func' }, ctx: BindCtx, bindExpr: (e: Expr, ctx: BindCtx) => BExpr): BExpr {
  const lam = e.args[1];
  const fn = LAMBDA_FNS[e.name];
  if (fn === undefined || e.args.length !== 2 || lam?.k !== 'lambda') {
    throw new SqlError('A lambda (x -> ...) is only allowed as the second argument of TRANSFORM, ARRAY_EXISTS or VARIANT_FILTER/MAP and their DEEP forms', e.pos, 'unsupported');
  }
  if (lam.params.length !== fn.arity) throw new SqlError(`${e.name} takes a lambda of ${fn.arity} parameter${fn.arity > 1 ? 's' : ''}`, lam.pos, 'type');
  return fn.build(bindLambda(e, lam, ctx, bindExpr));
}

/**
 * The first argument and the lambda's body, bound in the caller's scope plus one column per parameter (hiding a
 * column of the same name) after the row's last column: a VARIANT_ function's (key or path, value), else the
 * array's element.
 */
function bindLambda(e: Expr & { k: 'func' }, lam: Expr & { k: 'lambda' }, ctx: BindCtx, bindExpr: (e: Expr, ctx: BindCtx) => BExpr): BoundLambda {
  const name = e.name;
  const first = bindExpr(e.args[0]!, ctx);
  const variant = name.startsWith('VARIANT');
  if (variant && first.type.kind !== 'VARIANT' && first.type.kind !== 'NULL') throw typeErr(name, [first], e.pos, ': a VARIANT is needed');
  const arg = variant ? first : arr(name, first, e.pos);
  const deep = name.includes('DEEP');
  const paramTypes: SqlType[] = variant ? [deep ? mk('VARCHAR', true) : mk('VARIANT', true), mk('VARIANT', true)] : [withNull(arg.type.elem ?? mk('NULL'), true)];
  const names = lam.params.map((p) => canon(p, ctx.scope.casing));
  const base = Math.max(ctx.scope.width, ...ctx.scope.cols.map((c) => c.idx + 1));
  const cols = ctx.scope.cols.filter((c) => !names.includes(c.name));
  const scope = new Scope([...cols, ...names.map((n, i) => ({ name: n, type: paramTypes[i]!, idx: base + i }))], ctx.scope.casing);
  const body = bindExpr(lam.body, { ...ctx, scope });
  const bf = body.fn;
  return {
    name,
    arg,
    body,
    pos: lam.pos,
    call: (row, ...params) => {
      const r = row.slice(0, base);
      while (r.length < base) r.push(null);
      return bf(r.concat(params));
    },
    asVariant: (v) => JSON.parse(v === null ? 'null' : toVariantText(v, body.type)) as JsonValue,
  };
}

function requireBooleanBody(l: BoundLambda): void {
  if (l.body.type.kind !== 'BOOLEAN' && l.body.type.kind !== 'NULL') throw new SqlError(`${l.name} needs a BOOLEAN lambda`, l.pos, 'type');
}

/** A VARIANT result computed from the first argument's value (NULL when it is NULL). */
function variantOf(l: BoundLambda, compute: (row: Row, v: Value) => Value): BExpr {
  const af = l.arg.fn;
  return {
    type: mk('VARIANT', true),
    fn: (row) => {
      const v = af(row);
      return v === null ? null : compute(row, v);
    },
  };
}

/** The lambda's value of a VARIANT that is neither an object nor an array, as a VARIANT (NULL stays NULL). */
const mappedScalar = (l: BoundLambda, row: Row, v: Value): Value => {
  const r = l.call(row, null, v);
  return r === null ? null : canonicalJson(l.asVariant(r));
};

function transform(l: BoundLambda): BExpr {
  const af = l.arg.fn;
  return {
    type: mk('ARRAY', l.arg.type.nullable, { elem: withNull(l.body.type, true) }),
    fn: (row) => {
      const xs = af(row);
      return xs === null ? null : (xs as Value[]).map((x) => l.call(row, x));
    },
  };
}

/** TRUE when the lambda is TRUE for an element; else NULL when it was NULL for one, else FALSE. */
function arrayExists(l: BoundLambda): BExpr {
  requireBooleanBody(l);
  const af = l.arg.fn;
  return {
    type: mk('BOOLEAN', true),
    fn: (row) => {
      const xs = af(row);
      if (xs === null) return null;
      let sawNull = false;
      for (const x of xs as Value[]) {
        const v = l.call(row, x);
        if (v === true) return true;
        if (v === null) sawNull = true;
      }
      return sawNull ? null : false;
    },
  };
}

/** An object's entries for which the lambda (key, value) is TRUE; another VARIANT kept where (NULL, it) is. */
function variantFilter(l: BoundLambda): BExpr {
  requireBooleanBody(l);
  return variantOf(l, (row, v) => {
    const j = variantValue(v);
    if (!isObj(j)) return l.call(row, null, v) === true ? v : null;
    const out: Obj = {};
    for (const [k, x] of Object.entries(j)) if (l.call(row, canonicalJson(k), canonicalJson(x)) === true) out[k] = x;
    return canonicalJson(out);
  });
}

/** An object's values replaced by the lambda's (key, value); another VARIANT by its (NULL, it). */
function variantMap(l: BoundLambda): BExpr {
  return variantOf(l, (row, v) => {
    const j = variantValue(v);
    if (!isObj(j)) return mappedScalar(l, row, v);
    const out: Obj = {};
    for (const [k, x] of Object.entries(j)) out[k] = l.asVariant(l.call(row, canonicalJson(k), canonicalJson(x)));
    return canonicalJson(out);
  });
}

/** At every depth, the members for which the lambda (path, value) is TRUE (and within them, theirs). */
function variantDeepFilter(l: BoundLambda): BExpr {
  requireBooleanBody(l);
  const walk = (row: Row, j: JsonValue, path: string | null): JsonValue => {
    if (Array.isArray(j)) {
      const out: JsonValue[] = [];
      j.forEach((x, i) => {
        const p = at(path, i);
        if (l.call(row, p, canonicalJson(x)) === true) out.push(walk(row, x, p));
      });
      return out;
    }
    if (isObj(j)) {
      const out: Obj = {};
      for (const [k, x] of Object.entries(j)) {
        const p = join(path, k);
        if (l.call(row, p, canonicalJson(x)) === true) out[k] = walk(row, x, p);
      }
      return out;
    }
    return j;
  };
  return variantOf(l, (row, v) => {
    const j = variantValue(v);
    if (!isObj(j) && !Array.isArray(j)) return l.call(row, null, v) === true ? v : null;
    return canonicalJson(walk(row, j, null));
  });
}

/** The leaves replaced by the lambda's (path, leaf), the structure kept. */
function variantDeepMap(l: BoundLambda): BExpr {
  const walk = (row: Row, j: JsonValue, path: string | null): JsonValue => {
    if (Array.isArray(j)) return j.map((x, i) => walk(row, x, at(path, i)));
    if (isObj(j)) return Object.fromEntries(Object.entries(j).map(([k, x]) => [k, walk(row, x, join(path, k))]));
    return l.asVariant(l.call(row, path, canonicalJson(j)));
  };
  return variantOf(l, (row, v) => {
    const j = variantValue(v);
    if (!isObj(j) && !Array.isArray(j)) return mappedScalar(l, row, v);
    return canonicalJson(walk(row, j, null));
  });
}

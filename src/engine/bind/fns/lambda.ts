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

const LAMBDA_FNS: Record<string, number> = { TRANSFORM: 1, ARRAY_EXISTS: 1, VARIANT_FILTER: 2, VARIANT_MAP: 2, VARIANT_DEEP_FILTER: 2, VARIANT_DEEP_MAP: 2 };

type Obj = Record<string, JsonValue>;
const join = (path: string | null, k: string): string => (path === null ? pathKey(k) : `${path}.${pathKey(k)}`);
const at = (path: string | null, i: number): string => `${path ?? ''}[${i + 1}]`;

/** `bindExpr` is passed in by expr.ts (which calls this), so that the two modules do not import each other. */
export function bindLambdaCall(e: Expr & { k: 'func' }, ctx: BindCtx, bindExpr: (e: Expr, ctx: BindCtx) => BExpr): BExpr {
  const name = e.name;
  const lam = e.args[1];
  const arity = LAMBDA_FNS[name];
  if (arity === undefined || e.args.length !== 2 || lam?.k !== 'lambda') {
    throw new SqlError('A lambda (x -> ...) is only allowed as the second argument of TRANSFORM, ARRAY_EXISTS or VARIANT_FILTER/MAP and their DEEP forms', e.pos, 'unsupported');
  }
  if (lam.params.length !== arity) throw new SqlError(`${name} takes a lambda of ${arity} parameter${arity > 1 ? 's' : ''}`, lam.pos, 'type');
  const first = bindExpr(e.args[0]!, ctx);
  const variant = name.startsWith('VARIANT');
  if (variant && first.type.kind !== 'VARIANT' && first.type.kind !== 'NULL') throw typeErr(name, [first], e.pos, ': a VARIANT is needed');
  const a = variant ? first : arr(name, first, e.pos);
  const deep = name.includes('DEEP');
  const paramTypes: SqlType[] = variant ? [deep ? mk('VARCHAR', true) : mk('VARIANT', true), mk('VARIANT', true)] : [withNull(a.type.elem ?? mk('NULL'), true)];
  const names = lam.params.map((p) => canon(p, ctx.scope.casing));
  const base = Math.max(ctx.scope.width, ...ctx.scope.cols.map((c) => c.idx + 1));
  const cols = ctx.scope.cols.filter((c) => !names.includes(c.name));
  const scope = new Scope([...cols, ...names.map((n, i) => ({ name: n, type: paramTypes[i]!, idx: base + i }))], ctx.scope.casing);
  const body = bindExpr(lam.body, { ...ctx, scope });
  const bf = body.fn;
  const af = a.fn;
  const call = (row: Row, ...xs: Value[]): Value => {
    const r = row.slice(0, base);
    while (r.length < base) r.push(null);
    return bf(r.concat(xs));
  };
  const needBool = (): void => {
    if (body.type.kind !== 'BOOLEAN' && body.type.kind !== 'NULL') throw new SqlError(`${name} needs a BOOLEAN lambda`, lam.pos, 'type');
  };
  const asVariant = (v: Value): JsonValue => JSON.parse(v === null ? 'null' : toVariantText(v, body.type)) as JsonValue;

  switch (name) {
    case 'TRANSFORM':
      return {
        type: mk('ARRAY', a.type.nullable, { elem: withNull(body.type, true) }),
        fn: (row) => {
          const xs = af(row);
          return xs === null ? null : (xs as Value[]).map((x) => call(row, x));
        },
      };
    case 'ARRAY_EXISTS':
      needBool();
      return {
        type: mk('BOOLEAN', true),
        fn: (row) => {
          const xs = af(row);
          if (xs === null) return null;
          let sawNull = false;
          for (const x of xs as Value[]) {
            const v = call(row, x);
            if (v === true) return true;
            if (v === null) sawNull = true;
          }
          return sawNull ? null : false;
        },
      };
    case 'VARIANT_FILTER':
      needBool();
      return {
        type: mk('VARIANT', true),
        fn: (row) => {
          const v = af(row);
          if (v === null) return null;
          const j = variantValue(v);
          if (!isObj(j)) return call(row, null, v) === true ? v : null;
          const out: Obj = {};
          for (const [k, x] of Object.entries(j)) if (call(row, canonicalJson(k), canonicalJson(x)) === true) out[k] = x;
          return canonicalJson(out);
        },
      };
    case 'VARIANT_MAP':
      return {
        type: mk('VARIANT', true),
        fn: (row) => {
          const v = af(row);
          if (v === null) return null;
          const j = variantValue(v);
          if (!isObj(j)) {
            const r = call(row, null, v);
            return r === null ? null : canonicalJson(asVariant(r));
          }
          const out: Obj = {};
          for (const [k, x] of Object.entries(j)) out[k] = asVariant(call(row, canonicalJson(k), canonicalJson(x)));
          return canonicalJson(out);
        },
      };
    case 'VARIANT_DEEP_FILTER': {
      needBool();
      const walk = (row: Row, j: JsonValue, path: string | null): JsonValue => {
        if (Array.isArray(j)) {
          const out: JsonValue[] = [];
          j.forEach((x, i) => {
            const p = at(path, i);
            if (call(row, p, canonicalJson(x)) === true) out.push(walk(row, x, p));
          });
          return out;
        }
        if (isObj(j)) {
          const out: Obj = {};
          for (const [k, x] of Object.entries(j)) {
            const p = join(path, k);
            if (call(row, p, canonicalJson(x)) === true) out[k] = walk(row, x, p);
          }
          return out;
        }
        return j;
      };
      return {
        type: mk('VARIANT', true),
        fn: (row) => {
          const v = af(row);
          if (v === null) return null;
          const j = variantValue(v);
          if (!isObj(j) && !Array.isArray(j)) return call(row, null, v) === true ? v : null;
          return canonicalJson(walk(row, j, null));
        },
      };
    }
    default: {
      // VARIANT_DEEP_MAP: leaves only, structure kept
      const walk = (row: Row, j: JsonValue, path: string | null): JsonValue => {
        if (Array.isArray(j)) return j.map((x, i) => walk(row, x, at(path, i)));
        if (isObj(j)) return Object.fromEntries(Object.entries(j).map(([k, x]) => [k, walk(row, x, join(path, k))]));
        return asVariant(call(row, path, canonicalJson(j)));
      };
      return {
        type: mk('VARIANT', true),
        fn: (row) => {
          const v = af(row);
          if (v === null) return null;
          const j = variantValue(v);
          if (!isObj(j) && !Array.isArray(j)) {
            const r = call(row, null, v);
            return r === null ? null : canonicalJson(asVariant(r));
          }
          return canonicalJson(walk(row, j, null));
        },
      };
    }
  }
}

/** Aggregate calls: typing (Calcite rules: SUM/AVG keep the argument type, integer AVG truncates) and accumulators. */
import { SqlError, type Expr } from '../parse/ast.js';
import { type SqlType, mk, isInteger, isFloat, isDecimal, withNull } from '../types/types.js';
import { AvgAcc, AvgDecAcc, BoolAcc, CountAcc, ExtremeAcc, SumDecAcc, SumNumAcc, type Acc, type AggSpec } from '../ops/aggregate.js';
import type { BExpr } from './bexpr.js';
import { AGG_NAMES, bindCondition, bindExpr, type BindCtx } from './expr.js';
import { walkExpr } from './env.js';

export interface BoundAgg {
  spec: AggSpec;
  type: SqlType;
}

export function accFactory(name: string, arg: BExpr | undefined, e: Expr & { k: 'func' }): { make: () => Acc; type: SqlType } {
  const t = arg?.type;
  switch (name) {
    case 'COUNT':
      return { make: () => new CountAcc(), type: mk('BIGINT', false) };
    case 'SUM':
      if (!t || !(isInteger(t) || isFloat(t) || isDecimal(t))) throw new SqlError(`Cannot apply 'SUM' to arguments of type <${t?.kind}>`, e.pos, 'type');
      if (isDecimal(t)) return { make: () => new SumDecAcc(), type: mk('DECIMAL', true, { precision: 38, scale: t.scale ?? 0 }) };
      return { make: () => new SumNumAcc(), type: withNull(t, true) };
    case 'AVG':
      if (!t || !(isInteger(t) || isFloat(t) || isDecimal(t))) throw new SqlError(`Cannot apply 'AVG' to arguments of type <${t?.kind}>`, e.pos, 'type');
      if (isDecimal(t)) return { make: () => new AvgDecAcc(), type: withNull(t, true) };
      return { make: () => new AvgAcc(isInteger(t)), type: withNull(t, true) };
    case 'MIN':
    case 'MAX':
      if (!t) throw new SqlError(`${name} needs an argument`, e.pos, 'type');
      if (t.kind === 'ARRAY') throw new SqlError(`Cannot apply '${name}' to an ARRAY`, e.pos, 'type');
      return { make: () => new ExtremeAcc(name === 'MIN' ? 1 : -1), type: withNull(t, true) };
    case 'EVERY':
    case 'BOOL_AND':
    case 'SOME':
    case 'BOOL_OR':
      if (!t || (t.kind !== 'BOOLEAN' && t.kind !== 'NULL')) throw new SqlError(`Cannot apply '${name}' to arguments of type <${t?.kind}>`, e.pos, 'type');
      return { make: () => new BoolAcc(name === 'EVERY' || name === 'BOOL_AND'), type: mk('BOOLEAN', true) };
  }
  throw new SqlError(`Unsupported aggregate ${name}`, e.pos, 'unsupported');
}

/** Bind one aggregate call against the input scope. */
export function bindAggCall(e: Expr & { k: 'func' }, ctx: BindCtx): BoundAgg {
  const inner: BindCtx = { scope: ctx.scope, clause: 'an aggregate argument' };
  if (e.star && e.name !== 'COUNT') throw new SqlError(`${e.name}(*) is not valid`, e.pos, 'syntax');
  if (!e.star && e.args.length !== 1) throw new SqlError(`Invalid number of arguments to function '${e.name}'`, e.pos, 'type');
  const arg = e.star ? undefined : bindExpr(e.args[0]!, inner);
  const { make, type } = accFactory(e.name, arg, e);
  const filter = e.filter ? bindCondition(e.filter, { ...inner, clause: 'FILTER' }).fn : undefined;
  return {
    spec: { make, arg: arg?.fn, filter, distinct: e.distinct && !e.star, ignoreNulls: !e.star },
    type,
  };
}

/** Whether an expression calls an aggregate (outside window calls and subqueries). */
export function containsAgg(e: Expr): boolean {
  let found = false;
  walkExpr(e, (x) => {
    if (x.k === 'func' && x.over) return false;
    if (x.k === 'func' && AGG_NAMES.has(x.name)) {
      found = true;
      return false;
    }
    return undefined;
  });
  return found;
}

/**
 * The FROM binders, registered by from.ts when it loads. The grammar is recursive (a LATERAL subquery, a PIVOT
 * source or a correlated subquery has FROM items of its own), but the modules from.ts uses for those items
 * (lateral.ts, pivot.ts, decorrelate.ts) must not import from.ts back: they reach it through here, as query.ts
 * is reached through the QueryBinder passed down. Rule: only from.ts registers; the others call fromBinders().
 */
import type { Expr, FromItem } from '../parse/ast.js';
import type { Env, Rel } from './env.js';
import type { QueryBinder } from './from.js';

export interface FromBinders {
  bindFrom(items: FromItem[], env: Env, bindQuery: QueryBinder, pending?: Expr[]): Rel;
  bindFromItem(f: FromItem, env: Env, bindQuery: QueryBinder): Rel;
  emptyRowRel(env: Env): Rel;
}

let registered: FromBinders | undefined;

export function registerFromBinders(binders: FromBinders): void {
  registered = binders;
}

export function fromBinders(): FromBinders {
  if (!registered) throw new Error('engine/bind/from.ts is not loaded');
  return registered;
}

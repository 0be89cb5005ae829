/**
 * SESSION(TABLE t, DESCRIPTOR(timecol) [, DESCRIPTOR(key, ...)], size) in FROM (Feldera docs/sql/table.md): t's
 * columns plus window_start and window_end (TIMESTAMP NOT NULL) of each row's session (ops/session.ts). The
 * time column must be a TIMESTAMP, the size a constant positive day-time INTERVAL. Named arguments
 * (DATA =>, TIMECOL =>, KEY =>, SIZE =>) are taken in that order. Its columns carry no watermark lineage (a late
 * row that merges two sessions retracts rows of any age), so emit_final and state release downstream stop here;
 * with a LATENESS time column the operator releases its own final sessions.
 */
import { SqlError, type Expr, type FromItem } from '../parse/ast.js';
import { mk } from '../types/types.js';
import { rowKey, type Row } from '../types/values.js';
import { SessionOp } from '../ops/session.js';
import { canon, Scope, type ScopeColumn } from './scope.js';
import { lookupRelation, relFromNamed, type Env, type Rel } from './env.js';
import { bindExpr } from './expr.js';

export function bindSession(f: FromItem & { k: 'tvf' }, env: Env): Rel {
  const [tArg, tsArg, ...rest] = f.args;
  if (!tArg || tArg.k !== 'col') throw new SqlError('SESSION needs a table as its first argument', f.pos, 'syntax');
  if (!tsArg || tsArg.k !== 'descriptor' || tsArg.cols.length !== 1) throw new SqlError('SESSION needs DESCRIPTOR(column) as its second argument', f.pos, 'syntax');
  const keyArg = rest.length === 2 ? rest[0] : undefined;
  const sizeArg: Expr | undefined = rest.length === 2 ? rest[1] : rest[0];
  if (rest.length < 1 || rest.length > 2 || (keyArg && keyArg.k !== 'descriptor')) throw new SqlError('SESSION takes (TABLE t, DESCRIPTOR(timecol) [, DESCRIPTOR(key)], size)', f.pos, 'syntax');
  const base = relFromNamed(lookupRelation(env, tArg.parts, tArg.pos), canon(tArg.parts[tArg.parts.length - 1]!, env.casing), env.casing);
  const tsCol = base.scope.resolve(tsArg.cols, tsArg.pos);
  if (tsCol.type.kind !== 'TIMESTAMP') throw new SqlError(`SESSION needs a TIMESTAMP column, ${tsCol.name} is ${tsCol.type.kind}`, tsArg.pos, 'type');
  const keyIdx = keyArg && keyArg.k === 'descriptor' ? keyArg.cols.map((c) => base.scope.resolve([c], c.pos).idx) : [];
  const size = bindExpr(sizeArg!, { scope: base.scope, session: env.session, clause: 'SESSION' });
  if (!size.constant || size.type.kind !== 'INTERVAL_DT') throw new SqlError('SESSION size must be a constant day-time INTERVAL', sizeArg!.pos, 'type');
  const sizeMs = size.fn([]) as number;
  if (!(sizeMs > 0)) throw new SqlError('SESSION size must be positive', sizeArg!.pos, 'type');
  const key = keyIdx.length ? (row: Row) => rowKey(keyIdx.map((i) => row[i]!)) : () => '';
  const relName = f.alias ? canon(f.alias, env.casing) : undefined;
  const w = base.scope.width;
  const tsType = mk('TIMESTAMP', false);
  const cols: ScopeColumn[] = [
    ...base.scope.cols.map((c) => ({ ...c, rel: relName })),
    { rel: relName, name: env.casing === 'upper' ? 'WINDOW_START' : 'window_start', type: tsType, idx: w },
    { rel: relName, name: env.casing === 'upper' ? 'WINDOW_END' : 'window_end', type: tsType, idx: w + 1 },
  ];
  const tsIdx = tsCol.idx;
  // no watermark lineage: a late row that merges two sessions retracts rows of any age
  const lineage = base.node.columns[tsIdx]?.wm;
  const gc = lineage?.scale ? undefined : lineage; // (the operator reads its lineage in the column's own unit)
  const n = env.session.node({
    kind: 'session',
    inputs: [base.node],
    columns: cols.map((c) => ({ name: c.name, type: c.type })),
    make: () => new SessionOp(key, tsIdx, sizeMs, gc),
    keys: keyIdx.length,
  });
  return { node: n, scope: new Scope(cols, env.casing) };
}

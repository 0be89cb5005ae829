/**
 * `row[n]`: the n-th field (1-based) of a ROW or user-type value, as Feldera reads a subscript on a ROW. The
 * index must be a constant integer within the fields (its type is the field's, so it is known when binding);
 * anything else is a SqlError. A NULL row gives NULL.
 */
import { SqlError, type Pos } from '../parse/ast.js';
import { isInteger, withNull } from '../types/types.js';
import type { Value } from '../types/values.js';
import { type BExpr, strict1 } from './bexpr.js';

export function rowFieldAt(row: BExpr, index: BExpr, pos: Pos): BExpr {
  const fields = row.type.fields!;
  if (!isInteger(index.type) || !index.constant) throw new SqlError(`A ROW subscript must be a constant integer (1 to ${fields.length})`, pos, 'type');
  const n = Number(index.fn([]));
  const field = fields[n - 1];
  if (!Number.isInteger(n) || !field) throw new SqlError(`ROW subscript ${n} is out of range: the ROW has ${fields.length} fields`, pos, 'type');
  return strict1(row, withNull(field.type, true), (v) => (v as Value[])[n - 1] ?? null);
}

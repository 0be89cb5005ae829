/**
 * Recognising a call of NOW() in the parsed SQL, and the error for one where NOW() cannot be: what the
 * expression binder needs of bind/now.ts without importing it (bind/now.ts binds expressions itself).
 */
import { SqlError, type Expr } from '../parse/ast.js';

/** A call of NOW (a window call `NOW() OVER` is not one). */
export function isNowCall(e: Expr): boolean {
  return e.k === 'func' && e.name === 'NOW' && !e.over;
}

/** The error for NOW() where no clock is joined: a constant context, ON, LIMIT. */
export function nowNotHere(clause: string, pos: Expr['pos']): SqlError {
  const hint = clause === 'ON' ? ': move the condition to WHERE' : clause === 'DEFAULT' || clause === 'LATENESS' ? `: ${clause} must be a constant` : '';
  return new SqlError(`NOW() cannot be used in ${clause}${hint}`, pos, 'unsupported');
}

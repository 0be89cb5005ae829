/**
 * A readable SQL text of an expression, for run-time error messages (integer overflow names the expression).
 * Rules: only called when an error is raised (sites hold a thunk), never recursive beyond MAX_DEPTH levels
 * (deeper parts print as `…`), so a 5,000-term expression cannot overflow the stack here.
 */
import type { Expr, Pos } from '../parse/ast.js';
import type { IntSite } from '../types/int64.js';

const MAX_DEPTH = 8;
const OPS: Record<string, string> = {
  Plus: '+',
  Minus: '-',
  Multiply: '*',
  Divide: '/',
  Modulo: '%',
  Eq: '=',
  NotEq: '<>',
  Lt: '<',
  LtEq: '<=',
  Gt: '>',
  GtEq: '>=',
  And: 'AND',
  Or: 'OR',
  StringConcat: '||',
};

export function exprText(e: Expr, depth = 0): string {
  if (depth > MAX_DEPTH) return '…';
  const sub = (x: Expr): string => {
    const t = exprText(x, depth + 1);
    return x.k === 'bin' ? `(${t})` : t;
  };
  switch (e.k) {
    case 'col':
      return e.parts.map((p) => (p.quoted ? `"${p.value}"` : p.value)).join('.');
    case 'num':
      return e.text;
    case 'str':
      return `'${e.value.replace(/'/g, "''")}'`;
    case 'bool':
      return e.value ? 'TRUE' : 'FALSE';
    case 'null':
      return 'NULL';
    case 'bin':
      return `${sub(e.left)} ${OPS[e.op] ?? e.op} ${sub(e.right)}`;
    case 'un':
      return e.op === 'NOT' ? `NOT ${sub(e.expr)}` : `${e.op === 'NEG' ? '-' : '+'}${sub(e.expr)}`;
    case 'cast':
      return `CAST(${exprText(e.expr, depth + 1)} AS ${typeText(e.type)})`;
    case 'func':
      return `${e.name}(${e.star ? '*' : (e.distinct ? 'DISTINCT ' : '') + e.args.map((a) => exprText(a, depth + 1)).join(', ')})`;
    case 'case':
      return 'CASE … END';
    default:
      return `(${e.k} expression)`;
  }
}

function typeText(t: unknown): string {
  const name = typeof t === 'string' ? t : t && typeof t === 'object' ? Object.keys(t)[0] : undefined;
  if (!name) return 'type';
  // the parser's TinyIntUnsigned, IntUnsigned, Unsigned ... as SQL writes them
  return name === 'Unsigned' ? 'UNSIGNED' : name.replace(/^(\w+?)Unsigned$/, '$1 Unsigned').toUpperCase();
}

/** The site of an integer operation written as expression e. */
export function exprSite(e: Expr): IntSite {
  return { text: () => `${exprText(e)} (line ${e.pos.line}, column ${e.pos.column})` };
}

/** The site of an operation known only by a name and a position (a function's own check, an implicit cast). */
export function posSite(what: string, pos: Pos): IntSite {
  return { text: () => `${what} (line ${pos.line}, column ${pos.column})` };
}

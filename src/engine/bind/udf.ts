/**
 * SQL user-defined functions (Feldera docs/sql/udf.md): `CREATE FUNCTION name(p T, ...) RETURNS T AS expression`.
 * Contract: `UserFunctions.declare` binds a body once, at its declaration, over its parameters (it may call the
 * built-in functions and the user functions declared before it, never a column); while a program is bound
 * (compile-session.ts `inStatement`), `call` binds a call of a declared function (undefined for other names).
 * The rules are Feldera's (its compiler's ExternalFunction):
 * - an argument must have its parameter's type name (INTEGER is not BIGINT, DECIMAL(10, 2) fits DECIMAL(5, 1));
 *   CHAR and VARCHAR are one here (string literals are VARCHAR in this engine, CHAR in Calcite), and a NULL
 *   literal fits any parameter; the argument is then cast to the parameter's type;
 * - the body sees the arguments as they are, NULLs included (a SQL function is not strict); a NULL given to a
 *   NOT NULL parameter fails the step (Feldera's pipeline panics there);
 * - the body's value is cast to the return type when the two have one type name (they may differ in
 *   nullability, length or precision) or the function returns a string; otherwise the declaration is a
 *   compile error; a NULL from the body of a NOT NULL function fails the step (Feldera's unsafe cast panics);
 * - a name of a built-in function cannot be declared; a function without AS (implemented in Rust, as
 *   Feldera compiles them) is refused at its declaration and at each call.
 */
import { Adapter, parseRaw, parserErrorPosition } from '../parse/adapter.js';
import { SqlError, type Pos, type Statement } from '../parse/ast.js';
import { RETURN_COLUMN, type CreateFunctionSyntax } from '../parse/prepass.js';
import { isString, typeToString, withNull, type SqlType } from '../types/types.js';
import { IntOverflow } from '../types/int64.js';
import type { Value } from '../types/values.js';
import type { BExpr } from './bexpr.js';
import { canon, Scope, type Casing } from './scope.js';
import { bindExpr, coerce, parseTypeAt } from './expr.js';
import { scalarFunctionNames } from './functions.js';
import { AGG_NAMES } from './fns/aggregate.js';
import type { CallableFunctions, CompileSession } from './compile-session.js';

interface Param {
  name: string;
  type: SqlType;
}

type UserFunction = { name: string; rust: true } | { name: string; rust: false; params: Param[]; returns: SqlType; body: BExpr };

export class UserFunctions implements CallableFunctions {
  private readonly byName = new Map<string, UserFunction>();
  private builtins: Set<string> | undefined;

  constructor(private readonly casing: Casing) {}

  /** Declares the function (`pad` puts the statement's text where it is in the program, for positions). */
  declare(f: CreateFunctionSyntax, pos: Pos, pad: string, session: CompileSession, renamed?: ReadonlyMap<string, string>): void {
    const key = f.name.startsWith('"') ? f.name.slice(1, -1).replace(/""/g, '"').toUpperCase() : f.name.toUpperCase();
    this.builtins ??= new Set([...scalarFunctionNames(), ...AGG_NAMES]);
    if (this.builtins.has(key)) throw new SqlError(`A function named '${key}' already exists (a built-in function)`, pos, 'duplicate');
    if (this.byName.has(key)) throw new SqlError(`Duplicate declaration of function '${f.name}'`, pos, 'duplicate');
    if (f.signature === undefined || f.body === undefined) {
      this.byName.set(key, { name: key, rust: true });
      throw new SqlError(rustMessage(key), pos, 'unsupported');
    }
    const ad = new Adapter(pos, renamed);
    const sig = ad.statement(parsed(pad + f.signature, pos)[0], false) as Statement & { k: 'createTable' };
    const columns = sig.columns.map((c) => ({ name: canon(c.name, this.casing), type: withNull(parseTypeAt(c.type, c.pos, session), !c.notNull), pos: c.pos }));
    const ret = columns.pop()!;
    if (!sig.columns[sig.columns.length - 1]!.name.quoted || sig.columns[sig.columns.length - 1]!.name.value !== RETURN_COLUMN) throw new SqlError('internal: no return type', pos, 'internal');
    const seen = new Set<string>();
    for (const c of columns) {
      if (seen.has(c.name)) throw new SqlError(`Duplicate parameter '${c.name}'`, c.pos, 'duplicate');
      seen.add(c.name);
    }
    const select = parsed(pad + f.body, pos)[0] as { Query?: { body?: { Select?: { projection?: unknown[] } } } };
    const item = ad.selectItem(select.Query?.body?.Select?.projection?.[0]);
    if (item.k !== 'expr' || select.Query?.body?.Select?.projection?.length !== 1) throw new SqlError('The body of a function must be one expression', pos, 'syntax');
    const params = columns.map((c, i) => ({ name: c.name, type: c.type, idx: i }));
    const raw = bindExpr(item.expr, { scope: new Scope(params, this.casing), session, clause: `the body of function ${key}` });
    const returns = ret.type;
    const fits = raw.type.kind === 'NULL' || isString(returns) || raw.type.kind === returns.kind;
    if (!fits) throw new SqlError(`Function '${key}' should return '${describe(returns)}' but returns '${describe(raw.type)}'`, item.pos, 'type');
    let body = raw.type.kind === 'NULL' ? { ...raw, type: returns } : coerce(raw, returns, item.pos);
    if (!returns.nullable && raw.type.nullable) {
      const value = body.fn;
      body = {
        ...body,
        fn: (row) => {
          const v = value(row);
          if (v === null) throw new IntOverflow(`${key}(...)`, describe(returns), `function ${key} returned NULL, which its type ${describe(returns)} does not hold`);
          return v;
        },
      };
    }
    this.byName.set(key, { name: key, rust: false, params: columns.map((c) => ({ name: c.name, type: c.type })), returns, body: { ...body, type: returns } });
  }

  /** The bound call of a declared function, or undefined when `name` is not one. */
  call(name: string, args: BExpr[], pos: Pos): BExpr | undefined {
    const f = this.byName.get(name.toUpperCase());
    if (!f) return undefined;
    if (f.rust) throw new SqlError(`Function '${f.name}' cannot be called: it is declared without a SQL body (a Rust UDF, not supported)`, pos, 'unsupported');
    const fits = args.length === f.params.length && args.every((a, i) => a.type.kind === 'NULL' || a.type.kind === f.params[i]!.type.kind || (isString(a.type) && isString(f.params[i]!.type)));
    if (!fits)
      throw new SqlError(
        `Cannot apply '${f.name}' to arguments of type '${f.name}(${args.map((a) => `<${typeToString(a.type)}>`).join(', ')})'. Supported form(s): '${f.name}(${f.params.map((p) => `<${typeToString(p.type)}>`).join(', ')})'`,
        pos,
        'type',
      );
    const fns = args.map((a, i) => (a.type.kind === 'NULL' ? a : coerce(a, f.params[i]!.type, pos)).fn);
    const notNull = f.params.map((p, i) => !p.type.nullable && args[i]!.type.nullable);
    const body = f.body.fn;
    const n = fns.length;
    return {
      type: f.returns,
      fn: (row) => {
        const xs: Value[] = new Array(n);
        for (let i = 0; i < n; i++) {
          const x = fns[i]!(row);
          if (x === null && notNull[i]) throw new IntOverflow(`${f.name}(...)`, typeToString(f.params[i]!.type), `NULL argument for the NOT NULL parameter ${f.params[i]!.name} of function ${f.name}`);
          xs[i] = x;
        }
        return body(xs);
      },
      constant: args.every((a) => a.constant),
    };
  }
}

function describe(t: SqlType): string {
  return typeToString(t) + (t.nullable ? '' : ' NOT NULL');
}

function rustMessage(name: string): string {
  return `Function '${name}' has no SQL body (AS expression): user-defined functions implemented in Rust are not supported; only SQL functions (CREATE FUNCTION ... RETURNS type AS expression) are`;
}

function parsed(text: string, pos: Pos): unknown[] {
  try {
    return parseRaw(text);
  } catch (e) {
    const p = parserErrorPosition(e);
    throw new SqlError(p.message, p.line !== undefined ? { line: p.line, column: p.column ?? 1 } : pos, 'syntax');
  }
}

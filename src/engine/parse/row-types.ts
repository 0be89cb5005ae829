/**
 * Structured type syntax that the generic SQL parser does not read: `CREATE TYPE t AS (f1 INT, f2 STRING)`
 * and anonymous `ROW(f1 INT, f2 VARCHAR NOT NULL)` types (nested in ARRAY, MAP and each other). Read here
 * from the pre-pass tokens into a small type syntax tree; the binder turns it into SqlTypes
 * (types/parse-type.ts). Rules: a field is `name type [NOT NULL | NULL]`; a type is a built-in name with
 * optional `(n[, m])`, `MAP<K, V>`, `ROW(fields)` or a user type name, followed by any number of `ARRAY`.
 * Offsets are into the program text, for messages with line and column.
 */
import type { Token } from './tokens.js';

export type TypeSyntax =
  | { k: 'builtin'; text: string; offset: number }
  | { k: 'user'; name: string; quoted: boolean; offset: number }
  | { k: 'row'; fields: FieldSyntax[]; offset: number }
  | { k: 'array'; elem: TypeSyntax; offset: number }
  | { k: 'map'; key: TypeSyntax; value: TypeSyntax; offset: number };

export interface FieldSyntax {
  name: string;
  quoted: boolean;
  type: TypeSyntax;
  notNull: boolean;
  offset: number;
}

export class RowTypeSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Built-in type names that take two words. */
const TWO_WORDS: Record<string, string[]> = { DOUBLE: ['PRECISION'], CHARACTER: ['VARYING'], CHAR: ['VARYING'] };

const unquote = (t: Token): string => (t.kind === 'qident' ? t.text.slice(1, -1).replace(/""/g, '"') : t.text);

/** Reads types and field lists from a token list. */
export class TypeReader {
  constructor(
    private readonly toks: Token[],
    private readonly text: string,
    public i = 0,
  ) {}

  private peek(k = 0): Token | undefined {
    return this.toks[this.i + k];
  }

  private fail(message: string): never {
    const t = this.peek() ?? this.toks[this.toks.length - 1];
    throw new RowTypeSyntaxError(message, t ? t.start : 0);
  }

  private expect(text: string): Token {
    const t = this.peek();
    if (!t || t.text !== text) this.fail(`expected '${text}'${t ? `, found '${t.text}'` : ''}`);
    this.i++;
    return t;
  }

  /** `( field, field, ... )`: the '(' is the next token. */
  fields(): FieldSyntax[] {
    this.expect('(');
    const out: FieldSyntax[] = [];
    for (;;) {
      const n = this.peek();
      if (!n || (n.kind !== 'word' && n.kind !== 'qident')) this.fail('expected a field name');
      this.i++;
      const type = this.type();
      let notNull = false;
      if (this.peek()?.upper === 'NOT' && this.peek(1)?.upper === 'NULL') {
        notNull = true;
        this.i += 2;
      } else if (this.peek()?.upper === 'NULL') this.i++;
      out.push({ name: unquote(n), quoted: n.kind === 'qident', type, notNull, offset: n.start });
      const sep = this.peek();
      if (sep?.text === ',') {
        this.i++;
        continue;
      }
      if (sep?.text === ')') {
        this.i++;
        return out;
      }
      this.fail(`expected ',' or ')' after field '${unquote(n)}'`);
    }
  }

  type(): TypeSyntax {
    let t = this.base();
    while (this.peek()?.upper === 'ARRAY') {
      t = { k: 'array', elem: t, offset: this.peek()!.start };
      this.i++;
    }
    return t;
  }

  private base(): TypeSyntax {
    const t = this.peek();
    if (!t || (t.kind !== 'word' && t.kind !== 'qident')) this.fail('expected a type');
    if (t.kind === 'word' && t.upper === 'ROW' && this.peek(1)?.text === '(') {
      this.i++;
      return { k: 'row', fields: this.fields(), offset: t.start };
    }
    if (t.kind === 'word' && t.upper === 'MAP' && this.peek(1)?.text === '<') {
      this.i += 2;
      const key = this.type();
      this.expect(',');
      const value = this.type();
      this.expect('>');
      return { k: 'map', key, value, offset: t.start };
    }
    this.i++;
    if (t.kind === 'qident') return { k: 'user', name: unquote(t), quoted: true, offset: t.start };
    let end = t.end;
    const second = TWO_WORDS[t.upper];
    if (second && second.includes(this.peek()?.upper ?? '')) end = this.toks[this.i++]!.end;
    if (this.peek()?.text === '(') {
      // (n) or (n, m)
      this.i++;
      while (this.peek() && this.peek()!.text !== ')') this.i++;
      end = this.expect(')').end;
    }
    const text = this.text.slice(t.start, end);
    return BUILTIN.has(t.upper) ? { k: 'builtin', text, offset: t.start } : { k: 'user', name: t.text, quoted: false, offset: t.start };
  }
}

/** Names of the built-in types (anything else is a user type name). */
const BUILTIN = new Set(
  'BOOLEAN BOOL TINYINT SMALLINT INT2 INTEGER INT INT4 SIGNED BIGINT INT8 INT64 DECIMAL NUMERIC DEC REAL FLOAT4 FLOAT32 DOUBLE FLOAT8 FLOAT64 FLOAT VARCHAR CHAR CHARACTER STRING TEXT NVARCHAR DATE TIME TIMESTAMP DATETIME INTERVAL VARBINARY BINARY BYTEA BLOB VARIANT'.split(
    ' ',
  ),
);

/** `CREATE TYPE name AS (fields)` from its tokens (from CREATE on), or a syntax error. */
export function readCreateType(toks: Token[], text: string): { name: string; quoted: boolean; offset: number; fields: FieldSyntax[] } {
  let i = 1;
  if (toks[i]?.upper === 'OR' && toks[i + 1]?.upper === 'REPLACE') i += 2;
  i++; // TYPE
  const n = toks[i];
  if (!n || (n.kind !== 'word' && n.kind !== 'qident')) throw new RowTypeSyntaxError('CREATE TYPE needs a type name', toks[0]!.start);
  if (toks[i + 1]?.upper !== 'AS') throw new RowTypeSyntaxError("expected 'AS' after the type name", (toks[i + 1] ?? n).start);
  const r = new TypeReader(toks, text, i + 2);
  const fields = r.fields();
  if (r.i < toks.length) throw new RowTypeSyntaxError(`unexpected '${toks[r.i]!.text}' after the field list`, toks[r.i]!.start);
  return { name: unquote(n), quoted: n.kind === 'qident', offset: n.start, fields };
}

/**
 * Whether tokens at i start an anonymous ROW type (`ROW ( name type`), not a ROW(...) constructor
 * (`ROW(1, x)`, `ROW(a + b)`): a name followed by another word or a quoted name.
 */
export function startsRowType(toks: Token[], i: number): boolean {
  const [a, b, c, d] = [toks[i], toks[i + 1], toks[i + 2], toks[i + 3]];
  return (
    a?.upper === 'ROW' &&
    b?.text === '(' &&
    (c?.kind === 'qident' || (c?.kind === 'word' && !EXPRESSION_STARTS.has(c.upper))) &&
    (d?.kind === 'qident' || (d?.kind === 'word' && !OPERATOR_WORDS.has(d.upper)))
  );
}

/** Words that start an expression (`ROW(CASE WHEN ...)`, `ROW(NOT a)`), never a field name. */
const EXPRESSION_STARTS = new Set(['NOT', 'CASE', 'INTERVAL', 'EXISTS', 'DISTINCT', 'SELECT', 'ALL']);

/** Words that follow an operand in an expression (`ROW(a IS NULL)`), never a type name. */
const OPERATOR_WORDS = new Set(['IS', 'AND', 'OR', 'NOT', 'IN', 'LIKE', 'ILIKE', 'BETWEEN', 'AS', 'SIMILAR', 'RLIKE', 'COLLATE']);

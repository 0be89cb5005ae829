/**
 * Token pre-pass for Feldera-only syntax that the generic SQL parser does not accept.
 * Every rewrite keeps the text length and line breaks, so parser positions stay valid for the original text.
 *
 *  - splits the program into statements (respecting quotes and comments);
 *  - `CREATE LOCAL VIEW`: LOCAL is blanked and recorded;
 *  - column attributes `LATENESS expr` / `WATERMARK expr` / `DEFAULT expr`: blanked and recorded;
 *  - `TABLE t` as a table-function argument (TUMBLE/HOP): `TABLE` blanked;
 *  - `T ARRAY` (Calcite postfix array type, also after `MAP<K, V>`) -> `T []`;
 *  - `MAP<K, V>` -> `MAP(K, V)` (the parser's map type) and the constructor `MAP[k, v]` -> `MAP(k, v)`;
 *  - column `FOREIGN KEY REFERENCES x(y)` -> `REFERENCES x(y)`;
 *  - statement `LATENESS view.col expr;` recorded and removed;
 *  - `BETWEEN SYMMETRIC a AND b` -> `BETWEEN SYMMETRIC(a)AND b` (the adapter reads the marker call), ASYMMETRIC
 *    blanked;
 *  - the period predicates after a `(start, end)` pair, which the parser does not know, -> binary operators it
 *    parses and the adapter maps back when the left operand is a pair: CONTAINS `@>`, EQUALS `@@`, PRECEDES `<<`,
 *    SUCCEEDS `>>`, IMMEDIATELY PRECEDES `<@`, IMMEDIATELY SUCCEEDS `@?` (PERIOD_OPERATORS);
 *  - `LEFT ASOF JOIN` -> `ASOF JOIN` (the parser knows only the latter), where its MATCH_CONDITION is written
 *    recorded (leftAsof) for the adapter to tell it from an inner ASOF JOIN; a MATCH_CONDITION
 *    without parentheses gets them, in the blanks around it;
 *  - `CREATE FUNCTION f(params) RETURNS type [AS expr]` recorded as two texts the parser takes, positions kept:
 *    the signature as `CREATE TABLE f(params, "$R$" type)` and the body as `SELECT expr` (createFunction);
 *  - `CREATE TYPE t AS (...)` read and recorded (not given to the parser); an anonymous `ROW(f T, ...)` type
 *    replaced by a type name `_ROWn` of the same length, its fields recorded (row-types.ts);
 *  - `(a - b) UNIT [TO UNIT]` (an interval of a difference) -> `(a - b).UNIT[.TO.UNIT]`, a placeholder for UNIT
 *    where no blank precedes it; `INTERVAL v.col UNIT` -> `INTERVAL(v.col)UNIT` (bind/interval-forms.ts);
 *  - statements we do not support are reported with their position.
 */

import { readCreateType, RowTypeSyntaxError, startsRowType, TypeReader, type FieldSyntax } from './row-types.js';
import { intervalUnit } from '../types/interval-text.js';
import { tokenize, type Token } from './tokens.js';

export type CreateTypeSyntax = ReturnType<typeof readCreateType>;

export interface ColumnAttr {
  /** Column name as written (unquoted text or quoted text including quotes). */
  column: string;
  kind: 'LATENESS' | 'WATERMARK' | 'DEFAULT';
  /** Expression text. */
  expr: string;
  start: number;
}

export interface PreStatement {
  /** Start and end (exclusive, before the `;`) offsets into the original text. */
  start: number;
  end: number;
  /** The rewritten text of the statement (same length as the original slice). */
  text: string;
  local: boolean;
  columnAttrs: ColumnAttr[];
  /** Set for `LATENESS v.col expr;` statements, which are not given to the parser. */
  lateness?: { target: string[]; expr: string };
  /** Set for `CREATE TYPE name AS (...)` statements, which are not given to the parser (row-types.ts). */
  createType?: CreateTypeSyntax;
  /** Anonymous `ROW(...)` types of the statement, each replaced in `text` by a type name of the same length. */
  rowTypes?: Map<string, FieldSyntax[]>;
  /** Where (offsets in the program, end exclusive) the MATCH_CONDITION of each `LEFT ASOF JOIN` is written. */
  leftAsof?: Array<[number, number]>;
  /** Set for `CREATE FUNCTION` statements, which are given to the parser as the texts recorded here. */
  createFunction?: CreateFunctionSyntax;
  /** Words used as identifiers that the parser reserves, each replaced in `text` by a placeholder of the same length: placeholder -> word. */
  renamed?: Map<string, string>;
}

/**
 * `CREATE FUNCTION name(p T, ...) RETURNS T [NOT NULL] [AS expression]` as texts of the statement's length
 * (offsets and line breaks kept): `signature` reads `CREATE TABLE name(p T, ..., "$R$" T)` (the last column
 * is the return type), `body` reads `SELECT expression`; both undefined for a function without AS (a Rust UDF).
 */
export interface CreateFunctionSyntax {
  name: string;
  /** Offset of the name in the program. */
  offset: number;
  signature?: string;
  body?: string;
}

/** The column of a function's signature text that holds its return type. */
export const RETURN_COLUMN = '$R$';

export interface PrepassError {
  message: string;
  offset: number;
}

/** Period predicate keywords and the parser operator each is written as for the parser. */
export const PERIOD_OPERATORS: Record<string, string> = {
  CONTAINS: '@>',
  EQUALS: '@@',
  PRECEDES: '<<',
  SUCCEEDS: '>>',
  'IMMEDIATELY PRECEDES': '<@',
  'IMMEDIATELY SUCCEEDS': '@?',
};

/**
 * Words Feldera (Calcite) takes as identifiers that the generic parser reserves: `KEY` and `INDEX` start a
 * table constraint in a column list, the others end a SELECT (Hive's SORT/CLUSTER/DISTRIBUTE BY, RETURNING,
 * TOP). Each, where it is not the keyword of Feldera's own syntax (`PRIMARY KEY`, `FOREIGN KEY`, `CREATE
 * VIEW`), is replaced by a placeholder identifier of the same length that the adapter reads back as the word.
 */
const PARSER_RESERVED = new Set(['KEY', 'INDEX', 'FULLTEXT', 'SPATIAL', 'VIEW', 'RETURNING', 'SORT', 'CLUSTER', 'DISTRIBUTE', 'TOP']);
const KEYWORD_AFTER: Record<string, ReadonlySet<string>> = { KEY: new Set(['PRIMARY', 'FOREIGN']), VIEW: new Set(['CREATE', 'MATERIALIZED', 'LOCAL', 'REPLACE', 'RECURSIVE']) };
/** First character of a placeholder: a letter the parser takes in identifiers and SQL text hardly contains. */
export const PLACEHOLDER_MARK = '\u01c2';

const UNSUPPORTED_CREATE = new Set(['AGGREGATE', 'INDEX', 'TRIGGER', 'PROCEDURE', 'SCHEMA', 'DATABASE', 'SEQUENCE']);

function blank(chars: string[], start: number, end: number): void {
  for (let i = start; i < end; i++) if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
}

export function prepass(text: string): { statements: PreStatement[]; errors: PrepassError[] } {
  const tokens = tokenize(text);
  const statements: PreStatement[] = [];
  const errors: PrepassError[] = [];
  let s = 0;
  while (s < tokens.length) {
    let e = s;
    while (e < tokens.length && tokens[e]!.text !== ';') e++;
    if (e > s) {
      const toks = tokens.slice(s, e);
      const st = rewriteStatement(text, toks, errors);
      if (st) statements.push(st);
    }
    s = e + 1;
  }
  return { statements, errors };
}

function rewriteStatement(text: string, toks: Token[], errors: PrepassError[]): PreStatement | undefined {
  const start = toks[0]!.start;
  const end = toks[toks.length - 1]!.end;
  const st: PreStatement = { start, end, text: '', local: false, columnAttrs: [] };
  const u = (i: number): string => toks[i]?.upper ?? '';
  if (u(0) === 'LATENESS') return latenessStatement(text, toks, errors, st);
  if (u(0) === 'DECLARE') {
    errors.push({ message: 'DECLARE RECURSIVE VIEW is not supported', offset: start });
    return undefined;
  }
  const r: Rewrite = {
    text,
    toks,
    chars: Array.from(text.slice(start, end).split('')),
    start,
    end,
    st,
    errors,
    u,
    isCreateTable: u(0) === 'CREATE' && toks.some((t, i) => i < 4 && t.upper === 'TABLE'),
    depth: 0,
    colStartIdx: -1,
  };
  if (u(0) === 'CREATE') {
    const head = createHead(r);
    if (head === 'refused') return undefined;
    if (head === 'recorded') return st;
  }
  try {
    rewriteTokens(r);
  } catch (e) {
    if (e instanceof StatementRefused) return undefined;
    throw e;
  }
  const functionAt = u(0) === 'CREATE' ? toks.findIndex((t, i) => i < 4 && t.upper === 'FUNCTION') : -1;
  if (functionAt > 0) {
    const f = createFunctionTexts(toks, r.chars, start, functionAt);
    if (typeof f === 'string') {
      errors.push({ message: f, offset: toks[functionAt]!.start });
      return undefined;
    }
    st.createFunction = f;
  }
  st.text = r.chars.join('');
  return st;
}

/** One statement being rewritten: its tokens, its text as characters (rewritten in place, same length), what is recorded. */
interface Rewrite {
  /** The program. */
  text: string;
  toks: Token[];
  chars: string[];
  /** The statement's offsets in the program (chars[0] is text[start]). */
  start: number;
  end: number;
  st: PreStatement;
  errors: PrepassError[];
  /** The upper-cased text of token i ('' past the end). */
  u: (i: number) => string;
  isCreateTable: boolean;
  /** Parenthesis depth at the token; in CREATE TABLE, where the current column definition starts (-1 before the list). */
  depth: number;
  colStartIdx: number;
}

/** Thrown by a rewrite that refuses the statement (its error recorded). */
class StatementRefused extends Error {}

/** `LATENESS view.column expression;`: recorded, not given to the parser. */
function latenessStatement(text: string, toks: Token[], errors: PrepassError[], st: PreStatement): PreStatement | undefined {
  const target: string[] = [];
  let i = 1;
  while (i < toks.length && (toks[i]!.kind === 'word' || toks[i]!.kind === 'qident')) {
    target.push(toks[i]!.text);
    if (toks[i + 1]?.upper === '.') i += 2;
    else {
      i++;
      break;
    }
  }
  if (target.length === 0 || i >= toks.length) {
    errors.push({ message: 'LATENESS statement must be `LATENESS view.column expression`', offset: st.start });
    return undefined;
  }
  st.lateness = { target, expr: text.slice(toks[i]!.start, st.end) };
  st.text = '';
  return st;
}

/**
 * The head of a CREATE statement: `CREATE [OR REPLACE] TYPE` is read and recorded (not rewritten), a CREATE of
 * what is not supported refused, `CREATE LOCAL VIEW` loses its LOCAL; else its tokens are rewritten.
 */
function createHead(r: Rewrite): 'recorded' | 'refused' | 'rewrite' {
  const { toks, u, st, errors } = r;
  let i = 1;
  if (u(i) === 'OR' && u(i + 1) === 'REPLACE') i += 2;
  if (u(i) === 'TYPE') {
    try {
      st.createType = readCreateType(toks, r.text);
    } catch (e) {
      if (!(e instanceof RowTypeSyntaxError)) throw e;
      errors.push({ message: `CREATE TYPE: ${e.message}`, offset: e.offset });
      return 'refused';
    }
    return 'recorded';
  }
  if (UNSUPPORTED_CREATE.has(u(i))) {
    errors.push({ message: `CREATE ${u(i)} is not supported`, offset: toks[i]!.start });
    return 'refused';
  }
  if (u(i) === 'LOCAL' && u(i + 1) === 'VIEW') {
    st.local = true;
    blank(r.chars, toks[i]!.start - r.start, toks[i]!.end - r.start);
  }
  return 'rewrite';
}

/**
 * A rewrite at word token i: the index of the last token it took (the statement goes on after it), or undefined
 * when it does not apply there (the next one is tried).
 */
type WordRewrite = (r: Rewrite, i: number) => number | undefined;

/** Every token: parentheses and column commas tracked, each word given to the rewrites in this order. */
function rewriteTokens(r: Rewrite): void {
  const { toks } = r;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (t.text === '(') {
      r.depth++;
      if (r.isCreateTable && r.depth === 1 && r.colStartIdx < 0) r.colStartIdx = i + 1;
      continue;
    }
    if (t.text === ')') {
      r.depth--;
      continue;
    }
    if (r.isCreateTable && r.depth === 1 && t.text === ',') {
      r.colStartIdx = i + 1;
      continue;
    }
    if (t.kind !== 'word') continue;
    for (const rewrite of WORD_REWRITES) {
      const next = rewrite(r, i);
      if (next !== undefined) {
        i = next;
        break;
      }
    }
  }
}

/** A word the parser reserves, used as an identifier: a placeholder of the same length, recorded. */
const reservedWord: WordRewrite = (r, i) => {
  const t = r.toks[i]!;
  if (!PARSER_RESERVED.has(t.upper) || KEYWORD_AFTER[t.upper]?.has(r.u(i - 1))) return undefined;
  r.st.renamed ??= new Map();
  const name = PLACEHOLDER_MARK + String(r.st.renamed.size).padStart(t.text.length - 1, '0');
  if (name.length === t.text.length) {
    r.st.renamed.set(name, t.text);
    for (let k = 0; k < name.length; k++) r.chars[t.start - r.start + k] = name[k]!;
  }
  return i;
};

/** LEFT ASOF JOIN -> ASOF JOIN, where its MATCH_CONDITION is written recorded. */
const leftAsofJoin: WordRewrite = (r, i) => {
  const { toks, u, start } = r;
  const t = toks[i]!;
  if (t.upper !== 'LEFT' || u(i + 1) !== 'ASOF' || u(i + 2) !== 'JOIN') return undefined;
  blank(r.chars, t.start - start, t.end - start);
  let j = i + 3;
  while (j < toks.length && u(j) !== 'MATCH_CONDITION') j++;
  const from = toks[j + 1];
  for (let d = 0, k = j + 1; from && k <= toks.length; k++) {
    if (toks[k]?.text === '(') d++;
    else if (toks[k]?.text === ')') d--;
    else if (k === toks.length || (d === 0 && (u(k) === 'ON' || u(k) === 'USING'))) {
      (r.st.leftAsof ??= []).push([from.start, toks[k]?.start ?? r.end]);
      break;
    }
  }
  return i;
};

/** MATCH_CONDITION cond ON ...: the parser wants the condition in parentheses (Feldera takes it without). */
const matchCondition: WordRewrite = (r, i) => {
  const { toks, u, chars, start } = r;
  const t = toks[i]!;
  if (t.upper !== 'MATCH_CONDITION' || !toks[i + 1] || toks[i + 1]!.text === '(') return undefined;
  let j = i + 1;
  for (let d = 0; j < toks.length; j++) {
    if (toks[j]!.text === '(') d++;
    else if (toks[j]!.text === ')') d--;
    else if (d === 0 && (u(j) === 'ON' || u(j) === 'USING')) break;
  }
  const open = t.end - start;
  const close = (toks[j]?.start ?? r.end) - start - 1;
  if (/\s/.test(chars[open]!) && close > open && /\s/.test(chars[close]!)) {
    chars[open] = '(';
    chars[close] = ')';
  }
  return i;
};

/** BETWEEN ASYMMETRIC: the word blanked. */
const betweenAsymmetric: WordRewrite = (r, i) => {
  const t = r.toks[i]!;
  if (t.upper !== 'ASYMMETRIC' || r.u(i - 1) !== 'BETWEEN') return undefined;
  blank(r.chars, t.start - r.start, t.end - r.start);
  return i;
};

/** BETWEEN SYMMETRIC a AND b -> BETWEEN SYMMETRIC(a)AND b (the adapter reads the marker call). */
const betweenSymmetric: WordRewrite = (r, i) => {
  const { toks, text, chars, start } = r;
  const t = toks[i]!;
  if (t.upper !== 'SYMMETRIC' || r.u(i - 1) !== 'BETWEEN' || !/\s/.test(text[t.end] ?? '')) return undefined;
  let d = 0;
  for (let j = i + 1; j < toks.length; j++) {
    const tj = toks[j]!;
    if (tj.text === '(') d++;
    else if (tj.text === ')' && --d < 0) break;
    else if (d === 0 && tj.upper === 'AND') {
      if (/\s/.test(text[tj.start - 1] ?? '') && j > i + 1) {
        chars[t.end - start] = '(';
        chars[tj.start - 1 - start] = ')';
      }
      break;
    }
  }
  return i;
};

/** (a - b) UNIT [TO UNIT] -> (a - b).UNIT[.TO.UNIT] (bind/interval-forms.ts reads the field accesses back). */
const differenceUnit: WordRewrite = (r, i) => {
  const { toks, u } = r;
  const t = toks[i]!;
  if (i === 0 || toks[i - 1]!.text !== ')' || !intervalUnit(t.upper) || !groupHasMinus(toks, i - 1)) return undefined;
  const pairTo = u(i + 1) === 'TO' && intervalUnit(u(i + 2)) !== undefined;
  if (!rewriteDifferenceUnit(r.st, r.chars, r.start, toks[i - 1]!, t, pairTo ? toks[i + 1] : undefined)) return undefined;
  return pairTo ? i + 2 : i;
};

/** INTERVAL v.col UNIT (a qualified name, which the parser would end at its first part) -> INTERVAL(v.col)UNIT. */
const qualifiedInterval: WordRewrite = (r, i) => {
  const { toks, u, text } = r;
  const t = toks[i]!;
  if (t.upper !== 'INTERVAL' || toks[i + 1]?.kind !== 'word' || u(i + 2) !== '.') return undefined;
  let j = i + 1;
  while ((toks[j]?.kind === 'word' || toks[j]?.kind === 'qident') && u(j + 1) === '.') j += 2;
  const unit = toks[j + 1];
  if (!((toks[j]?.kind === 'word' || toks[j]?.kind === 'qident') && unit && intervalUnit(unit.upper) && /\s/.test(text[t.end] ?? '') && /\s/.test(text[unit.start - 1] ?? ''))) return undefined;
  r.chars[t.end - r.start] = '(';
  r.chars[unit.start - 1 - r.start] = ')';
  return j;
};

/** A period predicate after a (start, end) pair -> the parser operator the adapter maps back (PERIOD_OPERATORS). */
const periodPredicate: WordRewrite = (r, i) => {
  const { toks, u, chars, start } = r;
  const t = toks[i]!;
  if (i === 0 || toks[i - 1]!.text !== ')') return undefined;
  const two = t.upper === 'IMMEDIATELY' && (u(i + 1) === 'PRECEDES' || u(i + 1) === 'SUCCEEDS');
  const op = PERIOD_OPERATORS[two ? `IMMEDIATELY ${u(i + 1)}` : t.upper];
  if (op === undefined) return undefined;
  const last = two ? toks[i + 1]! : t;
  blank(chars, t.start - start, last.end - start);
  for (let k = 0; k < op.length; k++) chars[t.start - start + k] = op[k]!;
  return two ? i + 1 : i;
};

/** ROW(name type, ...) (an anonymous row type) -> a type name of the same length, its fields recorded. */
const anonymousRowType: WordRewrite = (r, i) => {
  const { toks, st, chars, start } = r;
  if (!startsRowType(toks, i)) return undefined;
  const reader = new TypeReader(toks, r.text, i + 1);
  let fields: FieldSyntax[];
  try {
    fields = reader.fields();
  } catch (e) {
    if (!(e instanceof RowTypeSyntaxError)) throw e;
    r.errors.push({ message: `ROW type: ${e.message}`, offset: e.offset });
    throw new StatementRefused();
  }
  st.rowTypes ??= new Map();
  const name = `_ROW${st.rowTypes.size}`;
  st.rowTypes.set(name, fields);
  const from = toks[i]!.start - start;
  blank(chars, from, toks[reader.i - 1]!.end - start);
  for (let k = 0; k < name.length; k++) chars[from + k] = name[k]!;
  return reader.i - 1;
};

const ATTRIBUTE_END_WORDS = ['NOT', 'NULL', 'PRIMARY', 'LATENESS', 'WATERMARK', 'DEFAULT', 'FOREIGN', 'REFERENCES'];

/** A column attribute in CREATE TABLE (LATENESS, WATERMARK, DEFAULT expression): blanked and recorded. */
const columnAttribute: WordRewrite = (r, i) => {
  const { toks } = r;
  const t = toks[i]!;
  if (!r.isCreateTable || r.depth !== 1 || (t.upper !== 'LATENESS' && t.upper !== 'WATERMARK' && t.upper !== 'DEFAULT') || r.colStartIdx < 0 || i <= r.colStartIdx) return undefined;
  let j = i + 1;
  let d = 0;
  while (j < toks.length) {
    const tj = toks[j]!;
    if (tj.text === '(') d++;
    else if (tj.text === ')') {
      if (d === 0) break;
      d--;
    } else if (tj.text === ',' && d === 0) break;
    else if (d === 0 && tj.kind === 'word' && ATTRIBUTE_END_WORDS.includes(tj.upper) && !(t.upper === 'DEFAULT' && j === i + 1)) break;
    j++;
  }
  const exprEnd = toks[j - 1]!.end;
  if (j > i + 1) {
    r.st.columnAttrs.push({
      column: toks[r.colStartIdx]!.text,
      kind: t.upper as ColumnAttr['kind'],
      expr: r.text.slice(toks[i + 1]!.start, exprEnd),
      start: t.start,
    });
    blank(r.chars, t.start - r.start, exprEnd - r.start);
  }
  return j - 1;
};

/** FOREIGN KEY REFERENCES -> REFERENCES (column level). */
const foreignKey: WordRewrite = (r, i) => {
  const t = r.toks[i]!;
  if (t.upper !== 'FOREIGN' || r.u(i + 1) !== 'KEY' || r.u(i + 2) !== 'REFERENCES') return undefined;
  blank(r.chars, t.start - r.start, r.toks[i + 1]!.end - r.start);
  return i + 1;
};

/** MAP<K, V> (type) and MAP[k, v, ...] (constructor) -> MAP(K, V) / MAP(k, v, ...). */
const mapBrackets: WordRewrite = (r, i) => {
  const { toks } = r;
  if (toks[i]!.upper !== 'MAP' || (toks[i + 1]?.text !== '<' && toks[i + 1]?.text !== '[')) return undefined;
  const open = toks[i + 1]!.text;
  const close = open === '<' ? '>' : ']';
  let d = 0;
  for (let j = i + 1; j < toks.length; j++) {
    const tj = toks[j]!;
    if (tj.text === open) d++;
    else if (tj.text === close && --d === 0) {
      r.chars[toks[i + 1]!.start - r.start] = '(';
      r.chars[tj.start - r.start] = ')';
      break;
    }
  }
  return i;
};

/** T ARRAY -> T [] (Calcite's postfix array type, also after MAP<K, V>). */
const postfixArray: WordRewrite = (r, i) => {
  const { toks, chars, start } = r;
  const t = toks[i]!;
  if (t.upper !== 'ARRAY' || i === 0 || toks[i + 1]?.text === '[' || toks[i + 1]?.text === '(') return undefined;
  const prev = toks[i - 1]!;
  if (prev.kind !== 'word' && prev.text !== ')' && prev.text !== '>') return undefined;
  const off = t.start - start;
  chars[off] = '[';
  chars[off + 1] = ']';
  for (let k = off + 2; k < t.end - start; k++) chars[k] = ' ';
  return i;
};

/** TABLE t as a table-function argument (TUMBLE, HOP): TABLE blanked. */
const tableArgument: WordRewrite = (r, i) => {
  const { toks } = r;
  const t = toks[i]!;
  if (t.upper !== 'TABLE' || i === 0) return undefined;
  const prev = toks[i - 1]!;
  if ((prev.text !== '(' && prev.text !== ',' && prev.text !== '=>') || !toks[i + 1] || toks[i + 1]!.text === '(') return undefined;
  blank(r.chars, t.start - r.start, t.end - r.start);
  return i;
};

/** The rewrites of a word, in the order they are tried: the first that applies takes it. */
const WORD_REWRITES: WordRewrite[] = [
  reservedWord,
  leftAsofJoin,
  matchCondition,
  betweenAsymmetric,
  betweenSymmetric,
  differenceUnit,
  qualifiedInterval,
  periodPredicate,
  anonymousRowType,
  columnAttribute,
  foreignKey,
  mapBrackets,
  postfixArray,
  tableArgument,
];

/** Whether the parenthesised group closed at toks[close] has a `-` at its top level (a difference). */
function groupHasMinus(toks: Token[], close: number): boolean {
  let minus = false;
  for (let d = 0, k = close - 1; k >= 0; k--) {
    const tk = toks[k]!;
    if (tk.text === ')') d++;
    else if (tk.text === '(') {
      if (d === 0) return minus;
      d--;
    } else if (d === 0 && tk.text === '-') minus = true;
  }
  return false;
}

/**
 * `) UNIT [TO UNIT2]` -> `).UNIT[.TO.UNIT2]`, in place: the blank before UNIT becomes the dot; with no blank, the
 * dot takes UNIT's first letter and the rest of the word becomes a placeholder for UNIT (PreStatement.renamed).
 * False (nothing written) when there is no room.
 */
function rewriteDifferenceUnit(st: PreStatement, chars: string[], start: number, close: Token, unit: Token, to: Token | undefined): boolean {
  const blankAt = (offset: number): boolean => offset >= 0 && /\s/.test(chars[offset] ?? '');
  if (to && !(blankAt(to.start - 1 - start) && blankAt(to.end - start))) return false;
  if (unit.start > close.end) chars[unit.start - 1 - start] = '.';
  else {
    const renamed = (st.renamed ??= new Map());
    const name = PLACEHOLDER_MARK + String(renamed.size).padStart(unit.text.length - 2, '0');
    if (name.length !== unit.text.length - 1) return false;
    renamed.set(name, unit.text);
    chars[unit.start - start] = '.';
    for (let k = 0; k < name.length; k++) chars[unit.start - start + 1 + k] = name[k]!;
  }
  if (to) {
    chars[to.start - 1 - start] = '.';
    chars[to.end - start] = '.';
  }
  return true;
}

/** The signature and body texts of `CREATE [OR REPLACE] FUNCTION` (token `fn` is FUNCTION), or an error message. */
function createFunctionTexts(toks: Token[], chars: string[], start: number, fn: number): CreateFunctionSyntax | string {
  const usage = 'CREATE FUNCTION must be `CREATE FUNCTION name(param type, ...) RETURNS type AS expression`';
  const name = toks[fn + 1];
  if (!name || (name.kind !== 'word' && name.kind !== 'qident') || toks[fn + 2]?.text !== '(') return usage;
  let close = -1;
  for (let j = fn + 2, d = 0; j < toks.length; j++) {
    if (toks[j]!.text === '(') d++;
    else if (toks[j]!.text === ')' && --d === 0) {
      close = j;
      break;
    }
  }
  if (close < 0 || toks[close + 1]?.upper !== 'RETURNS' || !toks[close + 2]) return usage;
  let as = -1;
  for (let j = close + 2, d = 0; j < toks.length; j++) {
    if (toks[j]!.text === '(') d++;
    else if (toks[j]!.text === ')') d--;
    else if (d === 0 && toks[j]!.upper === 'AS') {
      as = j;
      break;
    }
  }
  const out: CreateFunctionSyntax = { name: name.text, offset: name.start };
  if (as < 0) return out; // no body: a function implemented in Rust
  if (as === toks.length - 1) return usage;
  const at = (t: Token): number => t.start - start;
  const put = (to: string[], offset: number, text: string): void => {
    for (let k = 0; k < text.length; k++) to[offset + k] = text[k]!;
  };
  const sig = chars.slice();
  blank(sig, at(toks[1]!), toks[fn]!.end - start); // [OR REPLACE] FUNCTION
  put(sig, at(toks[fn]!), 'TABLE');
  sig[at(toks[close]!)] = close === fn + 3 ? ' ' : ','; // no parameters: no comma before the return column
  blank(sig, at(toks[close + 1]!), toks[close + 1]!.end - start); // RETURNS
  put(sig, at(toks[close + 1]!), `"${RETURN_COLUMN}"`);
  blank(sig, at(toks[as]!), sig.length);
  sig[at(toks[as]!)] = ')';
  const body = chars.slice();
  blank(body, 0, toks[as]!.end - start);
  put(body, 0, 'SELECT');
  out.signature = sig.join('');
  out.body = body.join('');
  return out;
}

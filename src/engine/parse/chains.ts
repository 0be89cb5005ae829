/**
 * Long chains of one associative operator (`a OR b OR ...`, `a AND b AND ...`, `a + b + ...`) are rewritten
 * before the WASM parser sees them into a call `"$CHAIN_OR"(a, b, ...)`: the parser builds a left-deep tree
 * for a chain, and a few hundred levels of it overflow the WASM stack when the tree is handed to JavaScript.
 * A call's arguments are a flat list; the adapter (parse/adapter.ts) turns the call into a balanced tree of
 * the same operator (AND/OR give the same three-valued result in any grouping; integer and DECIMAL `+` too;
 * DOUBLE sums of such chains may round differently from left-to-right).
 *
 * Rules (conservative: anything not recognised is left as written):
 * - works per parenthesis level and treats `( ... )` and `CASE ... END` as single items;
 * - OR: a chain is the items between hard delimiters (`,` `;` and clause keywords); AND: the same, with OR
 *   also a delimiter and the AND of `BETWEEN x AND y` not a separator;
 * - `+`: each term must be a simple product (names, literals, calls, parenthesised groups joined by `* / % -`),
 *   and the chain must sit between tokens that bind less tightly than `+` (a comparison, a keyword such as
 *   AND/THEN/FROM, a comma or a parenthesis).
 * Only chains of at least CHAIN_MIN terms are rewritten. Positions after a rewritten chain on its line shift.
 */

export const CHAIN_MIN = 32;

interface Tok {
  /** 'w' word, 'q' quoted name, 's' string, 'n' number, 'p' punctuation/operator, '(' and ')'. */
  t: 'w' | 'q' | 's' | 'n' | 'p' | '(' | ')';
  text: string;
  start: number;
  end: number;
}

function tokenize(src: string): Tok[] | undefined {
  const out: Tok[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '-' && src[i + 1] === '-') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const e = src.indexOf('*/', i + 2);
      if (e < 0) return undefined;
      i = e + 2;
      continue;
    }
    const start = i;
    if (/[A-Za-z_]/.test(c)) {
      while (i < n && /[A-Za-z0-9_$]/.test(src[i]!)) i++;
      out.push({ t: 'w', text: src.slice(start, i).toUpperCase(), start, end: i });
    } else if (c === '"' || c === '`') {
      const e = src.indexOf(c, i + 1);
      if (e < 0) return undefined;
      i = e + 1;
      out.push({ t: 'q', text: src.slice(start, i), start, end: i });
    } else if (c === "'") {
      i++;
      while (i < n) {
        if (src[i] === "'" && src[i + 1] === "'") i += 2;
        else if (src[i] === "'") break;
        else i++;
      }
      if (i >= n) return undefined;
      i++;
      out.push({ t: 's', text: src.slice(start, i), start, end: i });
    } else if (/[0-9.]/.test(c) && /[0-9]/.test(c === '.' ? (src[i + 1] ?? '') : c)) {
      while (i < n && /[0-9.eE]/.test(src[i]!)) i++;
      out.push({ t: 'n', text: src.slice(start, i), start, end: i });
    } else if (c === '(' || c === ')') {
      i++;
      out.push({ t: c, text: c, start, end: i });
    } else {
      const two = src.slice(i, i + 2);
      const len = ['<=', '>=', '<>', '!=', '||', '::', '=>', '->'].includes(two) ? 2 : 1;
      i += len;
      out.push({ t: 'p', text: src.slice(start, i), start, end: i });
    }
  }
  return out;
}

/** An item of one level: a token, or a group `( ... )` / `CASE ... END` spanning tokens [from, to]. */
interface Item {
  tok: Tok;
  group: boolean;
  from: number;
  to: number;
}

const HARD = new Set([
  'SELECT',
  'FROM',
  'WHERE',
  'GROUP',
  'BY',
  'HAVING',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'QUALIFY',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'ON',
  'JOIN',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'AS',
  'WINDOW',
  'USING',
  'INNER',
  'LEFT',
  'RIGHT',
  'FULL',
  'CROSS',
  'NATURAL',
  'VALUES',
  'CREATE',
  'VIEW',
  'TABLE',
  'WITH',
  'DISTINCT',
  'ALL',
  'OVER',
  'PARTITION',
  'ROWS',
  'RANGE',
  'ASC',
  'DESC',
  'NULLS',
  'FILTER',
]);
const LOOSER_THAN_PLUS_WORDS = new Set([...HARD, 'AND', 'OR', 'NOT', 'IS', 'IN', 'BETWEEN', 'LIKE', 'ILIKE']);
const COMPARISONS = new Set(['=', '<', '>', '<=', '>=', '<>', '!=']);
const PRODUCT_OPS = new Set(['*', '/', '%', '-']);
const NOT_NAMES = new Set([...LOOSER_THAN_PLUS_WORDS, 'CASE', 'NULL', 'TRUE', 'FALSE', 'EXISTS']);

/** The edits of one statement's rewrite, with the statement's text that the pieces are copied from. */
type Edits = Edit[] & { readonly source: string };

interface Edit {
  start: number;
  end: number;
  text: string;
}

export function rewriteLongChains(src: string): string {
  const toks = tokenize(src);
  if (!toks || toks.length < CHAIN_MIN * 2) return src;
  // match parentheses and CASE ... END
  const close = new Map<number, number>();
  const stack: number[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (t.t === '(' || (t.t === 'w' && t.text === 'CASE')) stack.push(i);
    else if (t.t === ')' || (t.t === 'w' && t.text === 'END')) {
      const o = stack.pop();
      if (o === undefined) return src;
      const open = toks[o]!;
      if ((t.t === ')') !== (open.t === '(')) return src;
      close.set(o, i);
    }
  }
  if (stack.length) return src;
  const edits: Edits = Object.assign([] as Edit[], { source: src });
  // levels: the whole text and the inside of each parenthesis group (iteratively, no recursion)
  const levels: Array<[number, number]> = [[0, toks.length - 1]];
  while (levels.length) {
    const [from, to] = levels.pop()!;
    const items: Item[] = [];
    for (let i = from; i <= to; i++) {
      const t = toks[i]!;
      const c = close.get(i);
      if (c !== undefined) {
        items.push({ tok: t, group: true, from: i, to: c });
        if (t.t === '(') levels.push([i + 1, c - 1]);
        else levels.push([i + 1, c - 1]); // inside CASE ... END: WHEN/THEN/ELSE are hard delimiters there
        i = c;
      } else items.push({ tok: t, group: false, from: i, to: i });
    }
    chainsOfLevel(items, toks, edits);
  }
  if (!edits.length) return src;
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of edits) {
    if (e.start < at) continue; // overlapping (cannot happen: one rewrite per segment), keep the first
    out += src.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + src.slice(at);
}

const isWord = (it: Item, w: string): boolean => !it.group && it.tok.t === 'w' && it.tok.text === w;

function chainsOfLevel(items: Item[], toks: Tok[], edits: Edits): void {
  // segments between hard delimiters
  let segStart = 0;
  for (let i = 0; i <= items.length; i++) {
    const it = items[i];
    const hard = !it || (!it.group && ((it.tok.t === 'p' && (it.tok.text === ',' || it.tok.text === ';')) || (it.tok.t === 'w' && HARD.has(it.tok.text))));
    if (!hard) continue;
    if (i > segStart) segment(items.slice(segStart, i), toks, edits);
    segStart = i + 1;
  }
}

/** Split a segment at a word operator; returns the pieces (item ranges) or undefined when fewer than CHAIN_MIN. */
function splitWords(seg: Item[], op: 'OR' | 'AND'): Item[][] {
  const pieces: Item[][] = [[]];
  let between = false;
  for (const it of seg) {
    if (op === 'AND' && isWord(it, 'OR')) return [];
    if (isWord(it, 'BETWEEN')) between = true;
    if (isWord(it, op)) {
      if (op === 'AND' && between) {
        between = false;
        pieces[pieces.length - 1]!.push(it);
        continue;
      }
      pieces.push([]);
      continue;
    }
    pieces[pieces.length - 1]!.push(it);
  }
  return pieces;
}

function segment(seg: Item[], toks: Tok[], edits: Edits): void {
  const ors = splitWords(seg, 'OR');
  if (ors.length >= CHAIN_MIN && ors.every((p) => p.length)) {
    emit('$CHAIN_OR', ors, toks, edits);
    return;
  }
  if (ors.length > 1) {
    for (const p of ors) segment(p, toks, edits);
    return;
  }
  const ands = splitWords(seg, 'AND');
  if (ands.length >= CHAIN_MIN && ands.every((p) => p.length)) {
    emit('$CHAIN_AND', ands, toks, edits);
    return;
  }
  plusChains(seg, toks, edits);
}

function emit(name: string, pieces: Item[][], toks: Tok[], edits: Edits): void {
  const first = pieces[0]![0]!;
  const last = pieces[pieces.length - 1]!.at(-1)!;
  const start = toks[first.from]!.start;
  // separators become commas; the text of the pieces is kept as written
  let text = `"${name}"(`;
  for (const [i, p] of pieces.entries()) {
    if (i > 0) text += ', ';
    text += edits.source.slice(toks[p[0]!.from]!.start, toks[p.at(-1)!.to]!.end);
  }
  text += ')';
  edits.push({ start, end: toks[last.to]!.end, text });
}

/** `+` chains inside a segment: runs of simple terms joined by `+`, between tokens looser than `+`. */
function plusChains(seg: Item[], toks: Tok[], edits: Edits): void {
  let i = 0;
  while (i < seg.length) {
    // a run starts after a loose token (or at the segment start)
    const prev = seg[i - 1];
    const looseBefore = !prev || (!prev.group && ((prev.tok.t === 'p' && COMPARISONS.has(prev.tok.text)) || (prev.tok.t === 'w' && LOOSER_THAN_PLUS_WORDS.has(prev.tok.text))));
    if (!looseBefore) {
      i++;
      continue;
    }
    const pieces: Item[][] = [];
    let j = i;
    for (;;) {
      const term = readTerm(seg, j);
      if (!term) break;
      pieces.push(seg.slice(j, term));
      j = term;
      const plus = seg[j];
      if (plus && !plus.group && plus.tok.t === 'p' && plus.tok.text === '+' && readTerm(seg, j + 1)) j++;
      else break;
    }
    const next = seg[j];
    const looseAfter = !next || (!next.group && ((next.tok.t === 'p' && COMPARISONS.has(next.tok.text)) || (next.tok.t === 'w' && LOOSER_THAN_PLUS_WORDS.has(next.tok.text))));
    if (pieces.length >= CHAIN_MIN && looseAfter) emit('$CHAIN_PLUS', pieces, toks, edits);
    i = Math.max(j, i + 1);
  }
}

/** Reads one term (operand (op operand)*, op in * / % -) from seg[i]; returns the index after it. */
function readTerm(seg: Item[], i: number): number | undefined {
  let j = i;
  let needOperand = true;
  for (;;) {
    const it = seg[j];
    if (needOperand) {
      if (!it) return undefined;
      if (!it.group && it.tok.t === 'p' && it.tok.text === '-') {
        j++;
        continue;
      }
      const operandEnd = readOperand(seg, j);
      if (operandEnd === undefined) return undefined;
      j = operandEnd;
      needOperand = false;
    } else {
      if (it && !it.group && it.tok.t === 'p' && PRODUCT_OPS.has(it.tok.text)) {
        j++;
        needOperand = true;
        continue;
      }
      return j;
    }
  }
}

function readOperand(seg: Item[], i: number): number | undefined {
  const it = seg[i];
  if (!it) return undefined;
  if (it.group) return it.tok.t === '(' ? i + 1 : undefined;
  const t = it.tok;
  if (t.t === 'n' || t.t === 's') return i + 1;
  if (t.t === 'w' || t.t === 'q') {
    if (t.t === 'w' && NOT_NAMES.has(t.text)) return undefined;
    let j = i + 1;
    // qualified names a.b.c
    while (seg[j] && !seg[j]!.group && seg[j]!.tok.text === '.' && seg[j + 1] && !seg[j + 1]!.group && (seg[j + 1]!.tok.t === 'w' || seg[j + 1]!.tok.t === 'q')) j += 2;
    // a call f(...)
    if (seg[j]?.group && seg[j]!.tok.t === '(') j++;
    return j;
  }
  return undefined;
}

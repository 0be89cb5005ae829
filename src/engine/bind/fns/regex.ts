/**
 * SQL regular expressions (RLIKE, REGEXP_REPLACE) and LIKE/ILIKE patterns, matched by RE2 (the re2js
 * library, a port of RE2): matching takes time linear in the text whatever the pattern, so a pattern such as
 * '(a+)+$' cannot freeze a step or an ad-hoc query (JavaScript's backtracking RegExp took minutes on 31 letters).
 *
 * Rules:
 * - The syntax is RE2's, which is (nearly) the syntax of Rust's regex crate that Feldera uses: the same
 *   classes, `(?i)`/`(?s)`/`(?m)` flags, named groups `(?P<n>..)` and `(?<n>..)`, no backreferences and no
 *   look-around. Those two are refused with a message that says so (compileRegex throws RegexError); other
 *   syntax errors carry RE2's own message. `\d`, `\w`, `\s` (and their negations) are given Rust's Unicode
 *   meaning (unicodeClasses: RE2's are ASCII). Differences left: `\b`, and `\W`, `\S` inside a bracketed
 *   class, are ASCII; a counted repetition may not exceed {1000} (Rust's limit is on the compiled size).
 * - REGEXP_REPLACE replaces every match as Rust's `replace_all`: `$1`, `$name`, `${name}` (the longest run of
 *   letters, digits and `_` after `$`), `$$` for a `$`; a group that did not take part (or does not exist)
 *   is empty text; an empty match right at the end of the previous match is skipped.
 * - A LIKE pattern is compiled to an anchored RE2 expression (`%` any text, `_` any one character, the escape
 *   character makes the next one literal); ILIKE lower-cases the text and the pattern first (as Feldera's
 *   ilike). The common shapes ('abc', 'abc%', '%abc', '%abc%') are plain string tests.
 * - `onGrowth(size)` (replaceAll) is told the size the result has reached, so that the caller can refuse a
 *   result past the value limit (value-limits.ts) before it is built whole.
 * - Matching reports its work to the running step's guard (step-guard.ts workDone: the text's length), so
 *   that a guarded step (an ad-hoc query) of few rows but long texts can be stopped in time.
 */
import { RE2JS, RE2JSException } from 're2js';
import { workDone } from '../../step-guard.js';

/** A pattern RE2 cannot take: its message says why (and, for what Rust's regex refuses too, that it is unsupported). */
export class RegexError extends Error {}

/** A compiled pattern. */
export type Regex = RE2JS;

const BACKREFERENCE = /\\[1-9]|\\k<|\\g\{?-?\d/;
const LOOK_AROUND = /\(\?<?[=!]/;

/** Compiles `pattern` (Rust regex syntax) for matching anywhere in a text; throws RegexError for a bad one. */
export function compileRegex(pattern: string): Regex {
  const unicode = unicodeClasses(pattern);
  if (unicode === pattern) return compileRe2(pattern, 0, pattern);
  compileRe2(pattern, 0, pattern); // a syntax error is reported in the pattern's own words, not the translation's
  return compileRe2(unicode, 0, pattern);
}

/** Rust's `\w` (Alphabetic, marks, decimal digits, connector punctuation) and `\s` (White_Space), as RE2 classes. */
const WORD = '\\p{L}\\p{Nl}\\p{M}\\p{Nd}\\p{Pc}';
const SPACE = '\\t\\n\\x{0B}\\f\\r \\x{85}\\p{Z}';
/** Each Perl class's Unicode meaning inside a bracketed class and outside (undefined: not expressible inside; kept). */
const PERL_CLASSES: Record<string, { inside: string | undefined; outside: string }> = {
  d: { inside: '\\p{Nd}', outside: '\\p{Nd}' },
  D: { inside: '\\P{Nd}', outside: '\\P{Nd}' },
  w: { inside: WORD, outside: `[${WORD}]` },
  W: { inside: undefined, outside: `[^${WORD}]` },
  s: { inside: SPACE, outside: `[${SPACE}]` },
  S: { inside: undefined, outside: `[^${SPACE}]` },
};

/**
 * `pattern` with `\d \D \w \W \s \S` given their Unicode meaning, as Rust's regex crate does (RE2's are ASCII):
 * escapes, `\Q...\E` and POSIX classes `[:alpha:]` are copied as they are; inside a bracketed class `\W` and
 * `\S` stay ASCII (a negated class cannot be written inside another). `\b` stays ASCII.
 */
export function unicodeClasses(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const n = pattern[i + 1];
      if (n === undefined) {
        out += c;
        continue;
      }
      if (n === 'Q' && !inClass) {
        const end = pattern.indexOf('\\E', i + 2);
        const stop = end < 0 ? pattern.length : end + 2;
        out += pattern.slice(i, stop);
        i = stop - 1;
        continue;
      }
      const meaning = PERL_CLASSES[n];
      const replacement = meaning && (inClass ? meaning.inside : meaning.outside);
      out += replacement ?? c + n;
      i++;
      continue;
    }
    if (inClass) {
      if (c === '[' && pattern[i + 1] === ':') {
        const end = pattern.indexOf(':]', i + 2);
        const stop = end < 0 ? i + 1 : end + 2;
        out += pattern.slice(i, stop);
        i = stop - 1;
        continue;
      }
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    out += c;
    if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') out += pattern[++i]!;
      if (pattern[i + 1] === ']') out += pattern[++i]!; // a ']' first in a class is itself
    }
  }
  return out;
}

function compileRe2(source: string, flags: number, shown: string): Regex {
  try {
    return RE2JS.compile(source, flags);
  } catch (err) {
    if (!(err instanceof RE2JSException)) throw err;
    if (BACKREFERENCE.test(shown)) throw new RegexError(`backreferences (such as \\1) are not supported: regular expressions run in linear time, as Rust's regex crate (which has none either)`);
    if (LOOK_AROUND.test(shown))
      throw new RegexError(`look-around assertions ((?=...), (?!...), (?<=...), (?<!...)) are not supported: regular expressions run in linear time, as Rust's regex crate (which has none either)`);
    throw new RegexError(err.message.replace(/^error parsing regexp: /, ''));
  }
}

/** Whether `re` matches somewhere in `text`. */
export function regexMatches(re: Regex, text: string): boolean {
  workDone(text.length); // the step's guard may stop a step (an ad-hoc query) of few rows but long texts
  return re.test(text);
}

type Part = string | { group: number | string };

/** A Rust replacement template (`$1`, `$name`, `${name}`, `$$`) as literal parts and group references. */
export function parseReplacement(template: string): Part[] {
  const parts: Part[] = [];
  let literal = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c !== '$') {
      literal += c;
      continue;
    }
    if (template[i + 1] === '$') {
      literal += '$';
      i++;
      continue;
    }
    let name: string | undefined;
    let end = i + 1;
    if (template[i + 1] === '{') {
      const close = template.indexOf('}', i + 2);
      if (close > i + 2) {
        name = template.slice(i + 2, close);
        end = close + 1;
      }
    } else {
      const m = /^[A-Za-z0-9_]+/.exec(template.slice(i + 1, i + 1 + 256));
      if (m) {
        name = m[0];
        end = i + 1 + name.length;
      }
    }
    if (name === undefined) {
      literal += '$'; // a `$` that starts no reference is itself (as Rust)
      continue;
    }
    if (literal) parts.push(literal);
    literal = '';
    parts.push({ group: /^\d+$/.test(name) ? Number(name) : name });
    i = end - 1;
  }
  if (literal) parts.push(literal);
  return parts;
}

/**
 * The text a pattern matches when it is plain text (no metacharacter, no flag; no surrogate either, which
 * RE2 reads as whole characters where split would cut a pair), else undefined.
 */
function literalOf(re: Regex): string | undefined {
  const p = re.pattern();
  return re.flags() === 0 && p !== '' && !/[\\^$.|?*+()[\]{}\uD800-\uDFFF]/.test(p) ? p : undefined;
}

/** Every match of `re` in `text` replaced by the template's parts (parseReplacement), as Rust's replace_all. */
export function replaceAll(re: Regex, text: string, parts: readonly Part[], onGrowth: (size: number) => void = () => {}): string {
  workDone(text.length);
  const literal = literalOf(re);
  if (literal !== undefined) {
    // plain text: the same matches (leftmost, not overlapping) by split, ~50x faster than re2js's ~1 us a match
    const replacement = parts.map((p) => (typeof p === 'string' ? p : p.group === 0 ? literal : '')).join('');
    const pieces = text.split(literal);
    onGrowth(text.length + (pieces.length - 1) * (replacement.length - literal.length));
    return pieces.join(replacement);
  }
  const m = re.matcher(text);
  const groups = m.groupCount();
  const out: string[] = [];
  let size = 0;
  let copied = 0;
  let lastEnd = -1;
  const add = (s: string): void => {
    out.push(s);
    size += s.length;
  };
  while (m.find()) {
    const start = m.start();
    const end = m.end();
    if (start === end && end === lastEnd) continue; // Rust skips an empty match that touches the previous match's end
    add(text.slice(copied, start));
    for (const p of parts) {
      if (typeof p === 'string') add(p);
      else if (typeof p.group === 'number') add(p.group <= groups ? (m.group(p.group) ?? '') : '');
      else add(groupByName(m, p.group));
    }
    onGrowth(size + (text.length - end));
    workDone(end - copied + 16); // a match costs more than its characters: many short matches count too
    copied = end;
    lastEnd = end;
  }
  if (copied === 0 && out.length === 0) return text;
  add(text.slice(copied));
  return out.join('');
}

function groupByName(m: ReturnType<Regex['matcher']>, name: string): string {
  try {
    return m.group(name) ?? '';
  } catch {
    return ''; // no group of that name: empty (as Rust)
  }
}

/** Whether a text matches a LIKE pattern. */
export type LikeMatcher = (text: string) => boolean;

/** A LIKE pattern's pieces: literal text, `%` (any text) and `_` (any one character). */
function likePieces(pattern: string, escape: string | undefined): (string | { any: boolean })[] {
  const pieces: (string | { any: boolean })[] = [];
  let literal = '';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (escape !== undefined && c === escape && i + 1 < chars.length) literal += chars[++i]!;
    else if (c === '%' || c === '_') {
      if (literal) pieces.push(literal);
      literal = '';
      pieces.push({ any: c === '%' });
    } else literal += c;
  }
  if (literal) pieces.push(literal);
  return pieces;
}

/** The common LIKE shapes ('abc', 'abc%', '%abc', '%abc%', '%') as string tests; undefined for others. */
function simpleLike(pieces: readonly (string | { any: boolean })[]): LikeMatcher | undefined {
  const anyText = (p: string | { any: boolean } | undefined): boolean => typeof p === 'object' && p.any;
  const lit = pieces.filter((p): p is string => typeof p === 'string');
  if (pieces.some((p) => typeof p === 'object' && !p.any) || lit.length > 1) return undefined;
  const text = lit[0] ?? '';
  const head = anyText(pieces[0]);
  const tail = anyText(pieces[pieces.length - 1]);
  if (pieces.length === 0) return (t) => t === '';
  if (lit.length === 0) return () => true; // '%', '%%'
  if (pieces.length === 1) return (t) => t === text;
  if (pieces.length === 2 && tail) return (t) => t.startsWith(text);
  if (pieces.length === 2 && head) return (t) => t.endsWith(text);
  if (pieces.length === 3 && head && tail) return (t) => t.includes(text);
  return undefined;
}

/**
 * A LIKE pattern as a matcher: the common shapes as string tests, the others as an anchored RE2 expression;
 * `escape` makes the next character literal (none when undefined), `caseInsensitive` for ILIKE (both sides
 * lower-cased). Throws
 * RegexError only if RE2 refuses it (it cannot: every character is quoted).
 */
export function compileLike(pattern: string, escape: string | undefined, caseInsensitive: boolean): LikeMatcher {
  if (caseInsensitive) {
    // as Feldera's ilike: both sides lower-cased (Unicode's full mapping, as Rust's to_lowercase), then LIKE
    const lower = compileLike(pattern.toLowerCase(), escape?.toLowerCase(), false);
    return (text) => lower(text.toLowerCase());
  }
  const pieces = likePieces(pattern, escape);
  const simple = simpleLike(pieces);
  if (simple) return simple;
  const source = pieces.map((p) => (typeof p === 'string' ? RE2JS.quote(p) : p.any ? '.*' : '.')).join('');
  const re = compileRe2(`^(?:${source})$`, RE2JS.DOTALL, pattern);
  return (text) => regexMatches(re, text);
}

/**
 * Compiles patterns that come from data, keeping at most `size` of them (all are dropped when it is full): a
 * bad one is remembered as null (its error is not raised again for every row). Few, because each compiled
 * pattern may keep up to 8 MiB of RE2's DFA cache (re2js's default budget) while it is kept.
 */
export function patternCache<T>(compileOne: (p: string) => T, size = 64): (p: string) => T | null {
  const cache = new Map<string, T | null>();
  return (p) => {
    let re = cache.get(p);
    if (re === undefined) {
      try {
        re = compileOne(p);
      } catch (err) {
        if (!(err instanceof RegexError)) throw err;
        re = null;
      }
      if (cache.size >= size) cache.clear();
      cache.set(p, re);
    }
    return re;
  };
}

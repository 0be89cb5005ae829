/**
 * String functions (Feldera docs/sql/string.md). Characters are Unicode code points (a surrogate pair is one
 * character). Regular expressions are RE2's (regex.ts: linear time, Rust regex syntax); an invalid constant
 * pattern is a compile error; an invalid pattern read from data matches nothing (RLIKE is false, REGEXP_REPLACE
 * leaves the text as it is), as Feldera's sqllib.
 */
import { createHash } from 'node:crypto';
import { SqlError, type Pos } from '../../parse/ast.js';
import { mk, isString } from '../../types/types.js';
import type { Value } from '../../types/values.js';
import { type BExpr, strict1, strict2, strictN, constant } from '../bexpr.js';
import { argc, coerceTo, int, nullableOf, str, typeErr } from './args.js';
import { aliases, type FnTable, type ScalarFn } from './registry.js';
import { checkSize, MAX_VALUE_SIZE, ValueTooLarge } from '../../types/value-limits.js';
import { bytesLeft, bytesMd5, bytesOctets, bytesOverlay, bytesPosition, bytesRight, bytesSubstring, isBytes } from './binary.js';
import { compileRegex, parseReplacement, patternCache, regexMatches, RegexError, replaceAll, type Regex } from './regex.js';

const chars = (s: Value): string[] => [...(s as string)];
const VARCHAR_ONE = (f: (s: string) => Value, sig: string): ScalarFn => ({
  sig,
  nulls: 'strict',
  bind: (args, pos, name) => {
    argc(name, args, 1, 1, pos);
    return strict1(str(name, args[0]!, pos), mk('VARCHAR', nullableOf(args)), (s) => {
      const out = f(s as string);
      if (typeof out === 'string' && out.length > (s as string).length) checkSize(name, out.length, 'characters'); // UPPER('ß') is 'SS'
      return out;
    });
  },
});

/** A one-argument string function whose binary argument is read by `onBytes` instead. */
function bytesOr(fn: ScalarFn, out: 'VARCHAR', onBytes: (hex: string) => Value): ScalarFn {
  return {
    ...fn,
    bind: (args, pos, name) => {
      if (args.length === 1 && isBytes(args[0]!)) return strict1(args[0]!, mk(out, nullableOf(args)), (b) => onBytes(b as string));
      return fn.bind(args, pos, name);
    },
  };
}

const initcap = (s: string, word: RegExp): string => s.toLowerCase().replace(word, (_m, p: string, c: string) => p + c.toUpperCase());

function trimmer(where: string): (v: Value, w: Value) => Value {
  return (v, w) => {
    const x = chars(v); // by characters: TRIM(TRAILING '🐍' FROM '🐍🐍') is ''
    const cs = new Set(chars(w));
    let a = 0;
    let b = x.length;
    if (where !== 'TRAILING') while (a < b && cs.has(x[a]!)) a++;
    if (where !== 'LEADING') while (b > a && cs.has(x[b - 1]!)) b--;
    return a === 0 && b === x.length ? v : x.slice(a, b).join('');
  };
}

const trim: ScalarFn = {
  sig: 'TRIM([BOTH|LEADING|TRAILING] [chars] FROM string), LTRIM/RTRIM/BTRIM(string [, chars])',
  nulls: 'strict',
  bind: (args, pos, name) => {
    let where = name === 'LTRIM' ? 'LEADING' : name === 'RTRIM' ? 'TRAILING' : 'BOTH';
    let rest = args;
    if (name === 'TRIM') {
      where = String(args[0]!.fn([]));
      rest = args.slice(1);
    }
    const s = str(name, rest[0]!, pos);
    const what = rest[1] ? str(name, rest[1], pos) : constant(mk('VARCHAR', false), ' ');
    return strict2(s, what, mk('VARCHAR', nullableOf(rest)), trimmer(where));
  },
};

function substring(v: Value, from: Value, len: Value | undefined): Value {
  const c = chars(v);
  let start = (from as number) - 1;
  let end = len === undefined ? c.length : start + (len as number);
  if (len !== undefined && (len as number) < 0) return null;
  if (start < 0) start = 0;
  if (end < start) end = start;
  return c.slice(start, end).join('');
}

/** A regular expression from SQL text: a constant is compiled once (and a bad one is a compile error). */
function regex(name: string, pat: BExpr, pos: Pos): (p: string) => Regex | null {
  if (pat.constant) {
    const p = pat.fn([]);
    if (p === null) return () => null;
    let re: Regex;
    try {
      re = compileRegex(p as string);
    } catch (e) {
      if (!(e instanceof RegexError)) throw e;
      throw new SqlError(`${name}: invalid regular expression '${String(p)}': ${e.message}`, pos, 'type');
    }
    return () => re;
  }
  return patternCache(compileRegex);
}

function pad(name: string): ScalarFn {
  return {
    sig: `${name}(string, length [, fill])`,
    nulls: 'strict',
    bind: (args, pos) => {
      argc(name, args, 2, 3, pos);
      const fill = args[2] ? str(name, args[2], pos) : constant(mk('VARCHAR', false), ' ');
      return strictN([str(name, args[0]!, pos), int(name, args[1]!, pos), fill], mk('VARCHAR', nullableOf(args)), ([s, k, f]) => {
        const len = k as number;
        if ((f as string) !== '') checkSize(name, len, 'characters'); // before anything is built: LPAD('x', 2000000000, 'ab')
        const c = chars(s);
        if (c.length >= len) return c.slice(0, Math.max(0, len)).join('');
        if ((f as string) === '') return s;
        const padLen = len - c.length;
        const p = [...(f as string).repeat(Math.ceil(padLen / (f as string).length))].slice(0, padLen).join('');
        return name === 'LPAD' ? p + s : s + p;
      });
    },
  };
}

const length: ScalarFn = {
  sig: 'CHAR_LENGTH(string) -> INTEGER',
  nulls: 'strict',
  bind: (args, pos, name) => {
    argc(name, args, 1, 1, pos);
    return strict1(str(name, args[0]!, pos), mk('INTEGER', nullableOf(args)), (s) => chars(s).length);
  },
};

const substr: ScalarFn = {
  sig: 'SUBSTRING(string or binary FROM start [FOR count])',
  nulls: 'strict',
  bind: (args, pos, name) => {
    argc(name, args, 2, 3, pos);
    const counts = args.slice(1).map((a) => int(name, a, pos));
    if (isBytes(args[0]!)) return strictN([args[0]!, ...counts], mk('VARBINARY', nullableOf(args)), ([v, from, len]) => bytesSubstring(v as string, from as number, len as number | undefined));
    return strictN([str(name, args[0]!, pos), ...counts], mk('VARCHAR', nullableOf(args)), ([v, from, len]) => substring(v, from, len));
  },
};

const position: ScalarFn = {
  sig: 'POSITION(substring IN string) -> INTEGER (or binary IN binary); STRPOS(string, substring)',
  nulls: 'strict',
  bind: (args, pos, name) => {
    argc(name, args, 2, 2, pos);
    const [needle, hay] = name === 'STRPOS' ? [args[1]!, args[0]!] : [args[0]!, args[1]!];
    if (isBytes(needle) && isBytes(hay)) return strict2(needle, hay, mk('INTEGER', nullableOf(args)), (a, b) => bytesPosition(a as string, b as string));
    let texts: [BExpr, BExpr];
    try {
      texts = [str(name, needle, pos), str(name, hay, pos)];
    } catch {
      throw new SqlError(`Parameters must be of the same type: ${name} of ${needle.type.kind} in ${hay.type.kind}`, pos, 'type');
    }
    return strict2(...texts, mk('INTEGER', nullableOf(args)), (a, b) => {
      const i = (b as string).indexOf(a as string);
      return i < 0 ? 0 : [...(b as string).slice(0, i)].length + 1;
    });
  },
};

const rlike: ScalarFn = {
  sig: 'RLIKE(string, pattern) -> BOOLEAN (string RLIKE pattern)',
  nulls: 'strict',
  bind: (args, pos, name) => {
    argc(name, args, 2, 2, pos);
    const re = regex(name, args[1]!, pos);
    return strict2(str(name, args[0]!, pos), str(name, args[1]!, pos), mk('BOOLEAN', nullableOf(args)), (s, p) => {
      const r = re(p as string);
      return r === null ? false : regexMatches(r, s as string); // a bad pattern matches nothing (as Feldera)
    });
  },
};

export const STRING_FNS: FnTable = {
  UPPER: VARCHAR_ONE((s) => s.toUpperCase(), 'UPPER(string) -> VARCHAR'),
  LOWER: VARCHAR_ONE((s) => s.toLowerCase(), 'LOWER(string) -> VARCHAR'),
  INITCAP: VARCHAR_ONE((s) => initcap(s, /(^|[^\p{L}\p{N}])(\p{L})/gu), 'INITCAP(string): words are runs of letters and digits'),
  INITCAP_SPACES: VARCHAR_ONE((s) => initcap(s, /(^| )(\p{L})/gu), 'INITCAP_SPACES(string): words are separated by spaces'),
  REVERSE: VARCHAR_ONE((s) => chars(s).reverse().join(''), 'REVERSE(string)'),
  MD5: bytesOr(
    VARCHAR_ONE((s) => createHash('md5').update(s, 'utf8').digest('hex'), 'MD5(string or binary) -> VARCHAR (hex)'),
    'VARCHAR',
    (b) => bytesMd5(b),
  ),
  ...aliases(['LENGTH', 'CHAR_LENGTH', 'CHARACTER_LENGTH', 'LEN'], length),
  OCTET_LENGTH: {
    sig: 'OCTET_LENGTH(string or binary) -> INTEGER (UTF-8 bytes of a string)',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      if (isBytes(args[0]!)) return strict1(args[0]!, mk('INTEGER', nullableOf(args)), (b) => bytesOctets(b as string));
      if (!isString(args[0]!.type) && args[0]!.type.kind !== 'NULL') throw typeErr(name, args, pos);
      return strict1(str(name, args[0]!, pos), mk('INTEGER', nullableOf(args)), (s) => Buffer.byteLength(s as string));
    },
  },
  ...aliases(['SUBSTRING', 'SUBSTR'], substr),
  LEFT: {
    sig: 'LEFT(string or binary, count)',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      if (isBytes(args[0]!)) return strict2(args[0]!, int(name, args[1]!, pos), mk('VARBINARY', nullableOf(args)), (b, k) => bytesLeft(b as string, k as number));
      return strict2(str(name, args[0]!, pos), int(name, args[1]!, pos), mk('VARCHAR', nullableOf(args)), (s, k) =>
        chars(s)
          .slice(0, Math.max(0, k as number))
          .join(''),
      );
    },
  },
  RIGHT: {
    sig: 'RIGHT(string or binary, count)',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      if (isBytes(args[0]!)) return strict2(args[0]!, int(name, args[1]!, pos), mk('VARBINARY', nullableOf(args)), (b, k) => bytesRight(b as string, k as number));
      return strict2(str(name, args[0]!, pos), int(name, args[1]!, pos), mk('VARCHAR', nullableOf(args)), (s, k) => {
        const c = chars(s);
        return (k as number) <= 0 ? '' : c.slice(Math.max(0, c.length - (k as number))).join('');
      });
    },
  },
  ...aliases(['TRIM', 'LTRIM', 'RTRIM', 'BTRIM'], trim),
  CONCAT: {
    sig: 'CONCAT(value, ...) -> VARCHAR (non-strings are cast; bytes are not yet implemented, as in Feldera)',
    nulls: 'strict',
    bind: (args, pos, name) => {
      if (args.some(isBytes)) throw new SqlError(`${name} of VARBINARY values`, pos, 'unsupported');
      // every argument as its text; ROW, MAP, ARRAY, VARIANT are refused (Calcite's text)
      return strictN(
        args.map((a) => str(name, a, pos)),
        mk('VARCHAR', nullableOf(args)),
        (xs) => {
          checkSize(
            name,
            (xs as string[]).reduce((n, x) => n + x.length, 0),
            'characters',
          );
          return xs.join('');
        },
      );
    },
  },
  CONCAT_WS: {
    sig: 'CONCAT_WS(sep, value, ...) -> VARCHAR',
    nulls: 'NULL when sep is NULL; other NULL arguments are skipped',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1000, pos);
      const sep = str(name, args[0]!, pos).fn;
      args.slice(1).forEach((a) => isBytes(a) || str(name, a, pos)); // ROW, MAP, ARRAY, VARIANT: Calcite's refusal (bytes are their hex text)
      const parts = args.slice(1).map((a) => (isString(a.type) ? a : coerceTo(a, mk('VARCHAR'), pos)).fn);
      return {
        type: mk('VARCHAR', args[0]!.type.nullable),
        fn: (r) => {
          const s = sep(r);
          if (s === null) return null;
          const xs: string[] = [];
          for (const p of parts) {
            const v = p(r);
            if (v !== null) xs.push(v as string);
          }
          checkSize(name, xs.reduce((n, x) => n + x.length, 0) + Math.max(0, xs.length - 1) * (s as string).length, 'characters');
          return xs.join(s as string);
        },
      };
    },
  },
  ...aliases(['POSITION', 'STRPOS'], position),
  REPLACE: {
    sig: 'REPLACE(string, search, replacement)',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 3, 3, pos);
      return strictN(
        args.map((a) => str(name, a, pos)),
        mk('VARCHAR', nullableOf(args)),
        ([s, a, b]) => {
          if (a === '') return s;
          const pieces = (s as string).split(a as string);
          checkSize(name, (s as string).length + (pieces.length - 1) * ((b as string).length - (a as string).length), 'characters');
          return pieces.join(b as string);
        },
      );
    },
  },
  REPEAT: {
    sig: 'REPEAT(string, count): empty for count <= 0',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      return strict2(str(name, args[0]!, pos), int(name, args[1]!, pos), mk('VARCHAR', nullableOf(args)), (s, k) => {
        const count = Math.max(0, k as number);
        checkSize(name, (s as string).length * count, 'characters'); // before building: REPEAT('x', 1000000000)
        return (s as string).repeat(count);
      });
    },
  },
  LPAD: pad('LPAD'),
  RPAD: pad('RPAD'),
  SPLIT_PART: {
    sig: 'SPLIT_PART(string, delimiter, n): 1-based; empty when n is out of range',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 3, 3, pos);
      return strictN(
        [str(name, args[0]!, pos), str(name, args[1]!, pos), int(name, args[2]!, pos)],
        mk('VARCHAR', nullableOf(args)),
        // an empty delimiter does not split: the whole string is part 1 (as Postgres and Feldera)
        ([s, d, k]) => (d === '' ? ((k as number) === 1 ? s : '') : ((s as string).split(d as string)[(k as number) - 1] ?? '')),
      );
    },
  },
  SPLIT: {
    sig: "SPLIT(string [, delimiter = ',']) -> VARCHAR ARRAY: [] for '', [string] for an empty delimiter",
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 2, pos);
      const d = args[1] ? str(name, args[1], pos) : constant(mk('VARCHAR', false), ',');
      return strict2(str(name, args[0]!, pos), d, mk('ARRAY', nullableOf(args), { elem: mk('VARCHAR', false) }), (s, sep) => {
        if (s === '') return [];
        if (sep === '') return [s];
        return (s as string).split(sep as string);
      });
    },
  },
  ASCII: {
    sig: 'ASCII(string) -> INTEGER: code point of the first character, 0 for an empty string',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      return strict1(str(name, args[0]!, pos), mk('INTEGER', nullableOf(args)), (s) => (s as string).codePointAt(0) ?? 0);
    },
  },
  CHR: {
    sig: 'CHR(integer) -> VARCHAR: empty for an invalid code',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      if (isString(args[0]!.type)) throw typeErr(name, args, pos, ': an integer is needed');
      return strict1(int(name, args[0]!, pos), mk('VARCHAR', nullableOf(args)), (n) => {
        const c = n as number;
        return c < 0 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) ? '' : String.fromCodePoint(c);
      });
    },
  },
  OVERLAY: {
    sig: 'OVERLAY(string PLACING new FROM start [FOR remove]), or of binary values',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 3, 4, pos);
      if (isBytes(args[0]!) && isBytes(args[1]!)) {
        const counts = args.slice(2).map((a) => int(name, a, pos));
        return strictN([args[0]!, args[1]!, ...counts], mk('VARBINARY', nullableOf(args)), ([b, p, from, len]) => {
          checkSize(name, ((b as string).length + (p as string).length) / 2, 'bytes');
          return bytesOverlay(b as string, p as string, from as number, len as number | undefined);
        });
      }
      const ins = [str(name, args[0]!, pos), str(name, args[1]!, pos), int(name, args[2]!, pos), ...(args[3] ? [int(name, args[3], pos)] : [])];
      return strictN(ins, mk('VARCHAR', nullableOf(args)), ([s, p, from, len]) => {
        const c = chars(s);
        const start = from as number;
        if (start <= 0) return s;
        const remove = len === undefined ? chars(p).length : Math.max(0, len as number);
        const at = Math.min(start - 1, c.length);
        checkSize(name, (s as string).length + (p as string).length, 'characters');
        return c.slice(0, at).join('') + (p as string) + c.slice(Math.min(c.length, at + remove)).join('');
      });
    },
  },
  RLIKE: rlike,
  REGEXP_REPLACE: {
    sig: "REGEXP_REPLACE(string, pattern [, replacement = ''])",
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 3, pos);
      const re = regex(name, args[1]!, pos);
      const repl = args[2] ? str(name, args[2], pos) : constant(mk('VARCHAR', false), '');
      const template = repl.constant ? parseReplacement((repl.fn([]) as string | null) ?? '') : undefined;
      return strictN([str(name, args[0]!, pos), str(name, args[1]!, pos), repl], mk('VARCHAR', nullableOf(args)), ([s, p, rp]) => {
        const r = re(p as string);
        return r === null
          ? s // a bad pattern replaces nothing (as Feldera)
          : replaceAll(r, s as string, template ?? parseReplacement(rp as string), (size) => {
              if (size > MAX_VALUE_SIZE) throw new ValueTooLarge(name, size, 'characters'); // (its work is counted by replaceAll)
            });
      });
    },
  },
};

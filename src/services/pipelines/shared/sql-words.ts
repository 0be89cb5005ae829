/**
 * The first words of an SQL statement read without the SQL parser: whitespace and comments skipped, a word
 * or a quoted identifier taken as written. The server process tells an INSERT from a query with it (the ad-hoc
 * route's paused check) without loading the engine's parser; the worker reads an INSERT's parts with it.
 *
 * Rules: `-- ...` runs to the end of the line, `/* ... *\/` to its close (an unclosed one to the end of the
 * text); a word is `[A-Za-z_][A-Za-z0-9_$]*`, a quoted identifier `"..."` with `""` for a quote inside; a token
 * is looked for in the next 4,096 characters only, so a huge statement costs no more than a small one.
 */

/** Past whitespace and comments (`-- ...`, `/* ... *\/`) from `pos`. */
export function skipSpace(text: string, pos: number): number {
  for (;;) {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++;
    if (text.startsWith('--', pos)) {
      const nl = text.indexOf('\n', pos);
      pos = nl < 0 ? text.length : nl + 1;
    } else if (text.startsWith('/*', pos)) {
      const end = text.indexOf('*/', pos + 2);
      pos = end < 0 ? text.length : end + 2;
    } else return pos;
  }
}

/** The word or quoted identifier at `pos` (as written) and where it ends, or null. */
export function identifierAt(text: string, pos: number): { token: string; end: number } | null {
  const m = /^(?:[A-Za-z_][A-Za-z0-9_$]*|"(?:[^"]|"")+")/.exec(text.slice(pos, pos + 4096));
  return m ? { token: m[0], end: pos + m[0].length } : null;
}

/** Whether the statement is an INSERT (its first word), without reading further: the route's paused check. */
export function isInsertStatement(sql: string): boolean {
  const first = identifierAt(sql, skipSpace(sql, 0));
  return first !== null && first.token.toLowerCase() === 'insert';
}

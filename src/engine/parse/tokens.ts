/**
 * The SQL tokenizer of the pre-pass (prepass.ts) and the row-type reader (row-types.ts): words, quoted
 * identifiers, strings, numbers and punctuation with their offsets; comments and blanks skipped. Pure.
 */

export interface Token {
  kind: 'word' | 'qident' | 'string' | 'number' | 'punct';
  text: string;
  upper: string;
  start: number;
  end: number;
}

export function tokenize(text: string, from = 0, to = text.length): Token[] {
  const out: Token[] = [];
  let i = from;
  while (i < to) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '-' && text[i + 1] === '-') {
      while (i < to && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const e = text.indexOf('*/', i + 2);
      i = e < 0 ? to : e + 2;
      continue;
    }
    const start = i;
    if (c === "'" || c === '"' || c === '`') {
      i++;
      while (i < to) {
        if (text[i] === c) {
          if (text[i + 1] === c) {
            i += 2;
            continue;
          }
          break;
        }
        i++;
      }
      i = Math.min(i + 1, to);
      const t = text.slice(start, i);
      out.push({ kind: c === "'" ? 'string' : 'qident', text: t, upper: t, start, end: i });
      continue;
    }
    if (/[\p{L}_]/u.test(c)) {
      while (i < to && /[\p{L}\p{N}_$]/u.test(text[i]!)) i++;
      const t = text.slice(start, i);
      out.push({ kind: 'word', text: t, upper: t.toUpperCase(), start, end: i });
      continue;
    }
    if (/[0-9]/.test(c)) {
      while (i < to && /[0-9.eE]/.test(text[i]!)) i++;
      const t = text.slice(start, i);
      out.push({ kind: 'number', text: t, upper: t, start, end: i });
      continue;
    }
    // multi-char punctuation we care about
    const two = text.slice(i, i + 2);
    if (two === '=>' || two === '::' || two === '<>' || two === '<=' || two === '>=' || two === '!=' || two === '||') {
      i += 2;
      out.push({ kind: 'punct', text: two, upper: two, start, end: i });
      continue;
    }
    // surrogate pairs (emoji) as one char
    const cp = text.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    const t = text.slice(start, i);
    out.push({ kind: /[\p{L}\p{So}]/u.test(t) ? 'word' : 'punct', text: t, upper: t.toUpperCase(), start, end: i });
  }
  return out;
}

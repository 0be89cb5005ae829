/** Pieces of generated shell code that bash and zsh share: quoting and the `case` table of subcommands. */
import type { PathTable } from './tables.js';

/** Single-quote a word for a POSIX shell. */
export function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `case` arms mapping "path/word" (a subcommand or one of its aliases) to the subcommand's name. */
export function subCases(paths: PathTable[]): string {
  const lines: string[] = [];
  for (const p of paths) {
    for (const s of p.subs) {
      const patterns = [s.name, ...s.aliases].map((w) => sq(`${p.path}/${w}`)).join('|');
      lines.push(`    ${patterns}) __ops_r=${sq(s.name)} ;;`);
    }
  }
  return lines.join('\n');
}

/** `case` arms mapping "path|option" to the completion code of the option's value (then `return 0`). */
export function valueCases(paths: PathTable[]): string {
  const lines: string[] = [];
  for (const p of paths) for (const o of p.opts) lines.push(`    ${sq(`${p.path}|${o.word}`)}) __ops_r=${sq(o.value)}; return 0 ;;`);
  return lines.join('\n');
}

/**
 * `case` arms mapping a command path to the completion code of its positional argument number "$2".
 * `atLeast(n)` is the shell's test for "$2 >= n" (the last, variadic argument repeats).
 */
export function argCases(paths: PathTable[], atLeast: (n: number) => string): string {
  const lines: string[] = [];
  for (const p of paths) {
    if (p.args.length === 0) continue;
    const inner = p.args.map((code, i) => `${i}) __ops_r=${sq(code)} ;;`);
    if (p.variadic) inner.push(`*) ${atLeast(p.args.length - 1)} && __ops_r=${sq(p.args.at(-1)!)} ;;`);
    lines.push(`    ${sq(p.path)}) case "$2" in ${inner.join(' ')} esac ;;`);
  }
  return lines.join('\n');
}

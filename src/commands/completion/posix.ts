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

/**
 * `ops pipe shell NAME` (fda's `shell`): an SQL shell over a running pipeline's ad-hoc queries (`/query`).
 * Lines are gathered until one ends with ';' (a statement may span lines); each statement's rows are printed
 * as `ops pipe query` prints them (a table on a terminal, TSV piped; --json: one line per statement, its
 * rows as a JSON array). `\q`, `quit` or `exit` (or
 * the end of input) end it. On a terminal: a prompt and node:readline's line editing and history. A failed
 * statement prints its error and the shell goes on; piped input ends with exit 1 when any statement failed.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ExitCode, OpsError } from '../../core/errors.js';
import type { Column } from '../../core/output.js';
import { sanitize } from '../../core/sanitize.js';
import { client, getPipeline } from './shared.js';

export interface PipeShellOptions {
  name: string;
}

export function newCmdPipeShell(f: Factory, runF: RunFunction<PipeShellOptions> = runPipeShell): Command {
  return new Command('shell')
    .arguments('<name>')
    .description('An interactive SQL shell over a running pipeline (statements end with ";"; \\q to quit)')
    .addHelpText('after', "\nExamples:\n  ops pipe shell shop\n  printf 'SELECT * FROM totals;\\n' | ops pipe shell shop")
    .action((name: string) => runWith(f, runF, { name }));
}

/** Splits input lines into statements: a statement ends with a line whose text ends with ';'. */
export class StatementBuffer {
  private lines: string[] = [];

  /** The statement completed by this line (without its ';'), or undefined while it goes on. */
  push(line: string): string | undefined {
    this.lines.push(line);
    const text = this.lines.join('\n').trim();
    if (!text.endsWith(';')) return undefined;
    this.lines = [];
    const sql = text.replace(/;+\s*$/, '').trim();
    return sql === '' ? undefined : sql;
  }

  get pending(): boolean {
    return this.lines.join('').trim() !== '';
  }
}

const QUIT = /^\s*(\\q|quit|exit)\s*;?\s*$/i;

export async function runPipeShell(opts: PipeShellOptions, ctx: Context): Promise<void> {
  const { name } = opts;
  const pipes = client(ctx);
  await getPipeline(ctx, pipes, name);
  const interactive = ctx.io.stdinIsTTY;
  const { createInterface } = await import('node:readline'); // loaded by the shell only, not by every `ops pipe` verb
  const rl = createInterface({ input: ctx.io.stdin, output: interactive ? ctx.io.stderr : undefined, terminal: interactive, historySize: 1000 });
  const buffer = new StatementBuffer();
  const prompt = () => {
    if (!interactive) return;
    rl.setPrompt(buffer.pending ? `${name}-> ` : `${name}=> `);
    rl.prompt();
  };
  if (interactive) ctx.out.info(`SQL over ${sanitize(name)}: end statements with ";", \\q to quit`);
  let failed = 0;
  prompt();
  for await (const line of rl) {
    if (!buffer.pending && QUIT.test(line)) break;
    const sql = buffer.push(line);
    if (sql !== undefined) {
      try {
        const rows = await pipes.query(name, sql);
        const keys: string[] = [];
        for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
        const columns: Column<Record<string, unknown>>[] = keys.map((k) => ({ header: k, key: k }));
        if (ctx.json)
          await ctx.out.ndjson(rows); // one line per statement: its rows as one JSON array
        else {
          if (rows.length === 0 && ctx.out.format === 'table') ctx.out.info('(no rows)');
          await ctx.out.list(rows, columns);
        }
      } catch (err) {
        failed++;
        ctx.io.stderr.write(`error: ${sanitize(err instanceof Error ? err.message : String(err), { keepNewlines: true })}\n`);
      }
    }
    prompt();
  }
  rl.close();
  if (buffer.pending) ctx.out.warn('the last statement had no ";" and was not run');
  if (failed > 0 && !interactive) throw new OpsError(`${failed} statement${failed === 1 ? '' : 's'} failed`, ExitCode.failure);
}

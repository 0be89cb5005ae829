/**
 * `ops pipe logs NAME [--follow]`: the pipeline's log lines. Without --follow the command ends when the
 * server ends the stream, or (today's Feldera always streams) once the lines already logged are printed
 * and nothing new came for a moment.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ApiError, ExitCode, OpsError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { parseJsonExact } from '../../core/json-exact.js';
import { client, explain } from './shared.js';

const CATCH_UP_IDLE_MS = 1500;

export interface PipeLogsOptions {
  name: string;
  /** keep printing new lines until interrupted or the stream ends */
  follow?: boolean;
}

export function newCmdPipeLogs(f: Factory, runF: RunFunction<PipeLogsOptions> = runPipeLogs): Command {
  return new Command('logs')
    .arguments('<name>')
    .description('Print the log of a pipeline; --follow to keep printing new lines')
    .option('-f, --follow', 'keep printing new lines until interrupted or the stream ends')
    .addHelpText('after', '\nExamples:\n  ops pipe logs shop\n  ops pipe logs shop --follow | grep ERROR')
    .action((name: string, flags: Omit<PipeLogsOptions, 'name'>) => runWith(f, runF, { ...flags, name }));
}

export async function runPipeLogs(opts: PipeLogsOptions, ctx: Context): Promise<void> {
  const { name } = opts;
  const pipes = client(ctx);
  ctx.io.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(ExitCode.ok);
  });
  const abort = new AbortController();
  let stream;
  try {
    stream = await pipes.logs(name, { follow: opts.follow, signal: abort.signal });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && err.code !== 'UnknownPipelineName') {
      throw new OpsError('this pipeline service has no logs endpoint', ExitCode.failure, 'The v0.24-era Feldera API had none; newer versions and `ops serve` do.');
    }
    explain(err, name);
  }
  let idle: NodeJS.Timeout | undefined;
  let ended = false;
  const arm = () => {
    if (opts.follow) return;
    clearTimeout(idle);
    idle = setTimeout(() => {
      ended = true;
      abort.abort();
      stream.body.destroy();
    }, CATCH_UP_IDLE_MS);
  };
  arm();
  try {
    for await (const line of stream.lines) {
      arm();
      if (ctx.json) {
        let value: unknown;
        try {
          value = parseJsonExact(line);
        } catch {
          value = { line };
        }
        await ctx.out.ndjson(value);
      } else await ctx.out.write(sanitize(line) + '\n');
    }
  } catch (err) {
    if (!ended) throw err;
  } finally {
    clearTimeout(idle);
  }
}

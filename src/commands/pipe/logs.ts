/**
 * `ops pipe logs NAME [--follow]`: the pipeline's log lines. Without --follow the command ends when the
 * server ends the stream, or (today's Feldera always streams) once the lines already logged are printed
 * and nothing new came for a moment.
 */
import type { Context } from '../../context.js';
import { ApiError, ExitCode, OpsError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { client, explain } from './shared.js';

const CATCH_UP_IDLE_MS = 1500;

export async function pipeLogs(ctx: Context, name: string, opts: { follow?: boolean }): Promise<void> {
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
          value = JSON.parse(line);
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

/**
 * `ops pipe watch NAME VIEW...`: one NDJSON line per change on stdout, written as soon as it arrives
 * (`{"view":"V","insert":{...}}` or `"delete"`), keep-alives dropped; `--raw` prints the server's frames;
 * `--snapshot` prints the current contents first; `--count N` stops after N changes; exit 0 when the
 * pipeline shuts down (the streams end). On a terminal without --json: a readable live view. Numbers keep
 * every digit the server sent (BIGINT beyond 2^53, long DECIMALs: core/json-exact.ts).
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ExitCode, OpsError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { jsonText } from '../../core/json-exact.js';
import { findRelation, isStopped, relationRef, type Change, type EgressFrame, type Pipeline } from '../../clients/pipelines.js';
import { rowText } from './render.js';
import { client, explain, getPipeline, parsePositiveInt } from './shared.js';

export interface PipeWatchOptions {
  name: string;
  views: string[];
  raw?: boolean;
  snapshot?: boolean;
  count?: string;
}

/** The output line of one change: the view first, then the change's own keys. */
export function changeLine(view: string, change: Change): Record<string, unknown> {
  return { view, ...change };
}

/** The name a view has on the server (its schema spelling), or as given. */
export function serverName(p: Pipeline, view: string): string {
  const rel = findRelation(p.outputs, view) ?? findRelation(p.inputs, view);
  return rel ? rel.name : view;
}

export function newCmdPipeWatch(f: Factory, runF: RunFunction<PipeWatchOptions> = runPipeWatch): Command {
  return new Command('watch')
    .arguments('<name> <views...>')
    .description('Stream the changes of views: one NDJSON line per change, {"view":..,"insert"|"delete":row}')
    .option('--raw', "print the server's frames as they arrive (keep-alives included)")
    .option('--snapshot', 'print the current contents of the views first')
    .option('--count <n>', 'stop after N changes')
    .addHelpText(
      'after',
      '\nEnds with exit 0 when the pipeline shuts down. On a terminal (without --json) a readable live view.\nExamples:\n  ops pipe watch shop revenue_by_product | jq -c .\n  ops pipe watch shop revenue_by_product big_orders --snapshot --count 10 > changes.ndjson',
    )
    .action((name: string, views: string[], flags: Omit<PipeWatchOptions, 'name' | 'views'>) => runWith(f, runF, { ...flags, name, views }));
}

export async function runPipeWatch(opts: PipeWatchOptions, ctx: Context): Promise<void> {
  const { name, views } = opts;
  const limit = opts.count !== undefined ? parsePositiveInt(opts.count, '--count') : undefined;
  const pipes = client(ctx);
  const p = await getPipeline(ctx, pipes, name);
  if (isStopped(p.deployment.status)) throw new OpsError(`${name} is not running (${p.deployment.status})`, ExitCode.failure, `Start it first: ops pipe start ${name}`);
  if (p.outputs.length > 0 || p.inputs.length > 0) {
    const unknown = views.filter((v) => !findRelation(p.outputs, v) && !findRelation(p.inputs, v));
    if (unknown.length > 0) {
      throw new OpsError(`${name} has no view ${unknown.map((v) => `"${sanitize(v)}"`).join(', ')}`, ExitCode.failure, `Its views: ${p.outputs.map((r) => r.name).join(', ') || '(none)'}`);
    }
  }
  const live = ctx.io.stdoutIsTTY && !ctx.json && !opts.raw;
  const c = ctx.out.c;
  const stdout = ctx.io.stdout;
  stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(ExitCode.ok);
  });

  const abort = new AbortController();
  let emitted = 0;
  let stopped = false;
  const stop = () => {
    stopped = true;
    abort.abort();
  };

  const write = (text: string): Promise<void> => ctx.out.write(text);
  const emit = async (view: string, change: Change): Promise<void> => {
    if (stopped) return;
    if (live) {
      const time = new Date().toISOString().slice(11, 19);
      const op = change.insert ? c.green('+') : change.delete ? c.red('-') : c.yellow('~');
      const row = (change.insert ?? change.delete ?? change) as Record<string, unknown>;
      await write(`${c.dim(time)} ${c.bold(sanitize(view))} ${op} ${rowText(row)}\n`);
    } else await write(jsonText(changeLine(view, change)) + '\n');
    emitted++;
    if (limit !== undefined && emitted >= limit) stop();
  };

  const current = p.generation === 'current';
  const names = views.map((v) => serverName(p, v));
  const refs = views.map((v) => relationRef(findRelation(p.outputs, v) ? p.outputs : p.inputs, v));
  let streams;
  try {
    streams = await Promise.all(refs.map((v) => pipes.watch(name, v, { sendSnapshot: Boolean(opts.snapshot) && current, signal: abort.signal })));
  } catch (err) {
    abort.abort();
    explain(err, name);
  }
  if (live) ctx.out.info(c.dim(`watching ${names.join(', ')} of ${sanitize(name)} (Ctrl-C to stop)`));

  // v0.24-era servers have no send_snapshot: read a snapshot after opening the watches (best effort).
  if (opts.snapshot && !current) {
    for (let i = 0; i < views.length && !stopped; i++) {
      const { rows } = await pipes.snapshot(name, refs[i]!);
      for (const row of rows) await emit(names[i]!, { insert: row });
    }
  }

  const consume = async (view: string, frames: AsyncGenerator<EgressFrame>): Promise<void> => {
    try {
      for await (const frame of frames) {
        if (stopped) return;
        if (opts.raw) {
          await write(frame.raw + '\n');
          emitted += frame.changes.length;
          if (limit !== undefined && emitted >= limit) stop();
          continue;
        }
        if (frame.keepAlive) continue;
        for (const change of frame.changes) {
          await emit(view, change);
          if (stopped) return;
        }
      }
    } catch (err) {
      if (stopped) return;
      // The connection dropped: fine if the pipeline is going down (or was deleted), an error otherwise,
      // and an error too when the service cannot be asked (it died: that is no normal end of the stream).
      let now: Pipeline | undefined;
      try {
        now = await pipes.find(name);
      } catch (again) {
        throw new OpsError(`the change stream of ${view} broke: ${(err as Error).message}`, ExitCode.failure, `The pipeline service cannot be reached either: ${(again as Error).message}`);
      }
      if (
        !now ||
        isStopped(now.deployment.status) ||
        now.deployment.desired === 'Shutdown' ||
        now.deployment.desired === 'Stopped' ||
        now.deployment.status === 'ShuttingDown' ||
        now.deployment.status === 'Stopping'
      )
        return;
      throw new OpsError(`the change stream of ${view} broke: ${(err as Error).message}`);
    }
  };
  await Promise.all(streams.map((s, i) => consume(names[i]!, s.frames)));
  for (const s of streams) s.body.destroy();
  if (live) ctx.out.info(c.dim(stopped ? `${emitted} change${emitted === 1 ? '' : 's'}` : `${sanitize(name)} shut down; ${emitted} change${emitted === 1 ? '' : 's'}`));
}

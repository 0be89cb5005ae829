/**
 * `ops pipe clock NAME [--advance MS | --tick]`: the NOW() clock of a pipeline driven over HTTP (its
 * runtime_config sets `dev_tweaks.now_http_driven`), as tests drive it: prints the clock's value (`now` and
 * `now_ms`), after moving it forward by MS milliseconds (rounded up to the clock's resolution) or by one
 * tick of `clock_resolution_usecs`. The clock only moves forward.
 */
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, OpsError } from '../../core/errors.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { examples } from '../help-text.js';
import { sanitize } from '../../core/sanitize.js';
import { client, explainToday } from './shared.js';

export interface PipeClockOptions {
  name: string;
  /** Milliseconds to move the clock by (0: read it), or null for one tick. */
  deltaMs: number | null;
}

function parseDelta(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) throw new OpsError(`--advance takes a whole number of milliseconds (0 or more), not '${sanitize(value)}'`, ExitCode.usage);
  return n;
}

export function newCmdPipeClock(f: Factory, runF: RunFunction<PipeClockOptions> = runPipeClock): Command {
  return new Command('clock')
    .arguments('<name>')
    .description('The NOW() clock of a pipeline driven over HTTP (dev_tweaks.now_http_driven): print it, or move it forward first')
    .addOption(new Option('--advance <ms>', 'move the clock forward by this many milliseconds (rounded up to its resolution) first'))
    .addOption(new Option('--tick', 'move the clock forward by one tick of clock_resolution_usecs first').conflicts('advance'))
    .addHelpText('after', examples('ops pipe clock shop', 'ops pipe clock shop --advance 3600000   # one hour later', 'ops pipe clock shop --tick --json | jq .now_ms'))
    .action((name: string, o: { advance?: string; tick?: boolean }) => runWith(f, runF, { name, deltaMs: o.tick ? null : o.advance === undefined ? 0 : parseDelta(o.advance) }));
}

export async function runPipeClock(opts: PipeClockOptions, ctx: Context): Promise<void> {
  const pipes = client(ctx);
  let clock: { now_ms: number; now: string };
  try {
    clock = await pipes.advanceClock(opts.name, opts.deltaMs);
  } catch (err) {
    explainToday(err, opts.name, 'an HTTP-driven clock');
  }
  if (ctx.json) return ctx.out.writeJson(clock);
  await ctx.out.write(`now\t${clock.now}\nnow_ms\t${clock.now_ms}\n`);
}

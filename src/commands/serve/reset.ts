/**
 * `ops serve reset`: empty a data dir (every bookmark, pipeline, notification, the connector root's files, the
 * detached server's logs) after a confirmation; `--yes` in scripts (without a terminal and without --yes: exit 2).
 *
 * Refused (exit 1, nothing removed) while a server holds the data dir, and no server can start while it runs: it
 * holds the data dir's lock itself (services/data-dir.ts emptyDataDir). Only what ops serve keeps there is removed;
 * anything else is named and left.
 */
import { Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { examples } from '../help-text.js';
import { dataDirOption, resolveDataDir, withDataDir, type DataDirOption } from './flags.js';
import { dataDirInUse } from './owner.js';

export type ServeResetOptions = DataDirOption;

export interface ServeReset {
  reset: boolean;
  dataDir: string;
  removed: string[];
  kept: string[];
}

export function newCmdServeReset(f: Factory, runF: RunFunction<ServeResetOptions> = runServeReset): Command {
  return dataDirOption(
    new Command('reset')
      .description("Empty the data dir (every service's data) after a confirmation; refused while a server runs on it")
      .addHelpText('after', examples('ops serve reset', 'ops serve reset --yes --data-dir ./tmp-data', 'ops serve stop && ops serve reset --yes && ops serve --detach')),
  ).action((flags: ServeResetOptions, cmd: Command) => runWith(f, runF, withDataDir(flags, cmd)));
}

export async function runServeReset(flags: ServeResetOptions, ctx: Context): Promise<ServeReset> {
  const dataDir = resolve(resolveDataDir(flags.dataDir, ctx.env));
  const done = async (r: ServeReset) => {
    if (ctx.json) await ctx.out.writeJson(r);
    return r;
  };
  if (!existsSync(dataDir)) {
    ctx.out.info(`nothing to reset: ${dataDir} does not exist`);
    return done({ reset: false, dataDir, removed: [], kept: [] });
  }
  const [{ ownerOf }, { emptyDataDir }, { DataDirInUseError }] = await Promise.all([
    import('../../services/server-file.js'),
    import('../../services/data-dir.js'),
    import('../../services/data-dir-lock.js'),
  ]);
  // refused before asking, and again (by the lock) after
  if (ownerOf(dataDir)) throw await dataDirInUse(dataDir, 'reset');
  const question = `Delete every bookmark, pipeline, notification and connector file in ${dataDir}?`;
  if (!(await ctx.prompter.confirm(question, { action: `reset ${dataDir}` }))) {
    ctx.out.info('cancelled');
    return done({ reset: false, dataDir, removed: [], kept: [] });
  }
  let emptied;
  try {
    emptied = emptyDataDir(dataDir);
  } catch (err) {
    if (err instanceof DataDirInUseError) throw await dataDirInUse(dataDir, 'reset');
    throw err;
  }
  if (!ctx.json) {
    ctx.out.success(`reset ${dataDir}${emptied.removed.length ? ` (removed ${emptied.removed.join(', ')})` : ' (it held nothing of ops serve)'}`);
    if (emptied.kept.length) ctx.out.info(`left what ops serve did not put there: ${emptied.kept.join(', ')}`);
  }
  return done({ reset: true, dataDir, ...emptied });
}

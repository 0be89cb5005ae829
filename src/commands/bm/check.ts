/**
 * `ops bm check [URL] [--broken]`: with a URL, is it saved already (exit 0 yes, 1 no); without, run the
 * server's link-health check (`ops serve`) and show the moved and broken links. A real LinkAce checks on its
 * own schedule and has no API to start one: its stored statuses are shown instead.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import type { Factory, RunFunction } from '../factory.js';
import { examples } from '../help-text.js';
import type { Link } from '../../clients/bookmarks.js';
import { statusName } from '../../clients/bookmarks/visibility.js';
import { OpsError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { startProgress } from '../../core/progress.js';
import { linkColumns } from './format.js';
import { bm, mode, parseId, runBm } from './shared.js';

export interface CheckOptions {
  /** is this URL saved already? (instead of a health check) */
  url?: string;
  broken?: boolean;
  id?: string;
}

export function newCmdCheck(f: Factory, runF: RunFunction<CheckOptions> = runCheck): Command {
  return new Command('check')
    .arguments('[url]')
    .description('Run the link-health check and show moved and broken links; with a URL, is it saved already')
    .option('--broken', 'only broken links')
    .option('--id <id>', 'check one link')
    .addHelpText('after', examples('ops bm check', 'ops bm check --broken --json', 'ops bm check https://example.com && echo saved'))
    .action((url: string | undefined, flags: Omit<CheckOptions, 'url'>) => runBm(f, runF, { ...flags, url }));
}

export async function runCheck(opts: CheckOptions, ctx: Context): Promise<void> {
  const { url } = opts;
  const client = bm(ctx);
  if (url !== undefined) {
    const found = await client.urlExists(url.trim());
    if (ctx.json) await ctx.out.writeJson({ url: url.trim(), linksFound: found });
    else await ctx.out.write(`${found ? 'saved' : 'not saved'}\t${sanitize(url.trim())}\n`);
    if (!found) throw new OpsError(`${url.trim()} is not saved`, 1);
    return;
  }
  const info = await client.detect();
  const id = opts.id !== undefined ? parseId(opts.id, 'link id') : undefined;
  let rows: Link[];
  if (info.healthCheck) {
    const progress = await startProgress(ctx.io, id ? `checking link ${id}` : 'checking your links', { json: ctx.json, plainLines: false });
    let results;
    try {
      results = await client.healthCheck(id);
    } catch (err) {
      progress.fail('link check failed');
      throw err;
    }
    progress.stop();
    const counts = { ok: 0, moved: 0, broken: 0 };
    for (const r of results) counts[statusName(r.status) as keyof typeof counts] = (counts[statusName(r.status) as keyof typeof counts] ?? 0) + 1;
    ctx.out.info(`checked ${results.length} link${results.length === 1 ? '' : 's'}: ${counts.ok} ok, ${counts.moved} moved, ${counts.broken} broken`);
    rows = results as unknown as Link[];
    // The check answers id, url and status: titles for the table come from the links themselves.
    if (!ctx.json && rows.some((r) => r.status !== 1)) {
      const all = new Map((await client.allLinks()).map((l) => [l.id, l]));
      rows = rows.map((r) => ({ ...all.get(r.id), ...r }) as Link);
    }
  } else {
    ctx.out.warn('this server checks links on its own schedule; showing the status it last recorded');
    rows = [];
    for await (const chunk of client.searchLinks({ broken_only: true }, { all: true })) rows.push(...chunk);
    if (id !== undefined) rows = rows.filter((r) => r.id === id);
  }
  const shown = rows.filter((r) => (opts.broken ? r.status === 3 : r.status === 2 || r.status === 3));
  if (ctx.json) return ctx.out.writeJson(shown);
  await ctx.out.list(shown, linkColumns(mode(ctx)));
  if (shown.length === 0 && ctx.out.format === 'table') ctx.out.info(opts.broken ? 'No broken links.' : 'No moved or broken links.');
}

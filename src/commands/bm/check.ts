/**
 * `ops bm check [URL] [--broken]`: with a URL, is it saved already (exit 0 yes, 1 no); without, run the
 * server's link-health check (`ops serve`) and show the moved and broken links. A real LinkAce checks on its
 * own schedule and has no API to start one: its stored statuses are shown instead.
 */
import type { Context } from '../../context.js';
import type { Link } from '../../clients/bookmarks.js';
import { statusName } from '../../clients/bookmarks/visibility.js';
import { OpsError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { startProgress } from '../../core/progress.js';
import { linkColumns } from './format.js';
import { bm, mode, parseId } from './shared.js';

export async function check(ctx: Context, url: string | undefined, opts: { broken?: boolean; id?: string }): Promise<void> {
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

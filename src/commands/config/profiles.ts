import type { Context } from '../../context.js';
import { OpsError } from '../../core/errors.js';
import { validateProfileName } from '../../core/config.js';

export async function profilesList(ctx: Context): Promise<void> {
  const active = ctx.profile;
  const names = ctx.store.profileNames();
  if (!names.includes(active)) names.push(active);
  const rows = names.sort().map((name) => ({
    name,
    active: name === active,
    bmUrl: ctx.store.get(name, 'bm.url') ?? null,
    pipeUrl: ctx.store.get(name, 'pipe.url') ?? null,
    notifyUrl: ctx.store.get(name, 'notify.url') ?? null,
    /** the data dir of the `ops serve` that wrote it */
    servedDataDir: ctx.store.servedDataDir(name) ?? null,
  }));
  await ctx.out.list(rows, [
    { header: '', get: (r) => (r.active ? '*' : '') },
    { header: 'name', key: 'name', style: (t, r, c) => (r.active ? c.bold(t) : t) },
    { header: 'bookmarks', key: 'bmUrl', shrink: true },
    { header: 'pipelines', key: 'pipeUrl', shrink: true },
    { header: 'notifications', key: 'notifyUrl', shrink: true },
  ]);
}

export async function profilesUse(ctx: Context, name: string): Promise<void> {
  validateProfileName(name);
  if (!ctx.store.hasProfile(name)) {
    throw new OpsError(`no profile named "${name}"`, undefined, `Create it with \`ops config set bm.url URL --profile ${name}\` or \`ops auth login bm --profile ${name}\`.`);
  }
  ctx.store.setCurrentProfile(name);
  ctx.out.success(`active profile: ${name}`);
}

export async function profilesRemove(ctx: Context, name: string): Promise<void> {
  validateProfileName(name);
  if (!ctx.store.hasProfile(name)) throw new OpsError(`no profile named "${name}"`);
  if (!(await ctx.prompter.confirm(`Delete profile "${name}" and its secrets?`, { action: `delete profile "${name}"` }))) {
    ctx.out.info('cancelled');
    return;
  }
  ctx.store.deleteProfile(name);
  ctx.out.success(`profile "${name}" deleted`);
}

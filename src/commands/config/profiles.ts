/** `ops config profiles [use|rm]`: list the profiles, choose the active one, delete one with its secrets. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { addVerbs, runWith, type Factory, type RunFunction } from '../factory.js';
import { OpsError } from '../../core/errors.js';
import { validateProfileName } from '../../core/config.js';

/** `ops config profiles` (it lists them) with its verbs use and rm. */
export function newCmdProfiles(f: Factory): Command {
  return addVerbs(newCmdProfilesList(f), newCmdProfilesUse(f), newCmdProfilesRm(f));
}

/** No options: every profile. */
export type ProfilesListOptions = Record<string, never>;

export function newCmdProfilesList(f: Factory, runF: RunFunction<ProfilesListOptions> = runProfilesList): Command {
  return new Command('profiles')
    .description('List profiles (the active one marked)')
    .addHelpText('after', '\nExamples:\n  ops config profiles\n  ops config profiles use work\n  ops config profiles rm old')
    .action(() => runWith(f, runF, {}));
}

export async function runProfilesList(opts: ProfilesListOptions, ctx: Context): Promise<void> {
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

export interface ProfilesUseOptions {
  /** the profile name */
  name: string;
}

export function newCmdProfilesUse(f: Factory, runF: RunFunction<ProfilesUseOptions> = runProfilesUse): Command {
  return new Command('use')
    .description('Make a profile the active one')
    .argument('<profile>', 'the profile name')
    .addHelpText('after', '\nExamples:\n  ops config profiles use work\n  ops config profiles use local')
    .action((name: string) => runWith(f, runF, { name }));
}

export async function runProfilesUse(opts: ProfilesUseOptions, ctx: Context): Promise<void> {
  const { name } = opts;
  validateProfileName(name);
  if (!ctx.store.hasProfile(name)) {
    throw new OpsError(`no profile named "${name}"`, undefined, `Create it with \`ops config set bm.url URL --profile ${name}\` or \`ops auth login bm --profile ${name}\`.`);
  }
  await ctx.store.setCurrentProfile(name);
  ctx.out.success(`active profile: ${name}`);
}

export interface ProfilesRmOptions {
  /** the profile name */
  name: string;
}

export function newCmdProfilesRm(f: Factory, runF: RunFunction<ProfilesRmOptions> = runProfilesRm): Command {
  return new Command('rm')
    .description('Delete a profile and its secrets')
    .argument('<profile>', 'the profile name')
    .addHelpText('after', '\nExamples:\n  ops config profiles rm old\n  ops config profiles rm old --yes   # no confirmation (scripts)')
    .action((name: string) => runWith(f, runF, { name }));
}

export async function runProfilesRm(opts: ProfilesRmOptions, ctx: Context): Promise<void> {
  const { name } = opts;
  validateProfileName(name);
  if (!ctx.store.hasProfile(name)) throw new OpsError(`no profile named "${name}"`);
  if (!(await ctx.prompter.confirm(`Delete profile "${name}" and its secrets?`, { action: `delete profile "${name}"` }))) {
    ctx.out.info('cancelled');
    return;
  }
  await ctx.store.deleteProfile(name);
  ctx.out.success(`profile "${name}" deleted`);
}

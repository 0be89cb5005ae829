/** `ops auth logout [SERVICE]`: remove a service's secret (or all) from the active profile. */
import { Argument, Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { AUTH_SERVICES, type AuthService } from './login.js';

const SECRET_KEYS = { bm: 'bm.token', pipe: 'pipe.api-key', notify: 'notify.api-key' } as const;

export interface AuthLogoutOptions {
  /** only this service (default: all of them) */
  service?: AuthService;
}

export function newCmdAuthLogout(f: Factory, runF: RunFunction<AuthLogoutOptions> = runAuthLogout): Command {
  return new Command('logout')
    .description("Remove a service's secret (or all of them) from the active profile")
    .addArgument(new Argument('[service]', 'only this service').choices(AUTH_SERVICES))
    .addHelpText('after', '\nExamples:\n  ops auth logout bm\n  ops auth logout --yes')
    .action((service: AuthService | undefined) => runWith(f, runF, { service }));
}

export async function runAuthLogout(opts: AuthLogoutOptions, ctx: Context): Promise<void> {
  const { service } = opts;
  const keys = service ? [SECRET_KEYS[service]] : Object.values(SECRET_KEYS);
  const what = service ? `the ${service} secret` : 'all service secrets';
  if (!(await ctx.prompter.confirm(`Remove ${what} from profile "${ctx.profile}"?`, { action: `remove ${what}` }))) {
    ctx.out.info('cancelled');
    return;
  }
  const removed: string[] = [];
  for (const key of keys) if (await ctx.store.unset(ctx.profile, key)) removed.push(key);
  if (removed.length === 0) ctx.out.info(`nothing to remove from profile "${ctx.profile}"`);
  else ctx.out.success(`removed ${removed.join(', ')} from profile "${ctx.profile}"`);
}

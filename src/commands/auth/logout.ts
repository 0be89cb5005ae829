import type { Context } from '../../context.js';

const SECRET_KEYS = { bm: 'bm.token', pipe: 'pipe.api-key', notify: 'notify.api-key' } as const;

export async function authLogout(ctx: Context, service?: keyof typeof SECRET_KEYS): Promise<void> {
  const keys = service ? [SECRET_KEYS[service]] : Object.values(SECRET_KEYS);
  const what = service ? `the ${service} secret` : 'all service secrets';
  if (!(await ctx.prompter.confirm(`Remove ${what} from profile "${ctx.profile}"?`, { action: `remove ${what}` }))) {
    ctx.out.info('cancelled');
    return;
  }
  const removed = keys.filter((key) => ctx.store.unset(ctx.profile, key));
  if (removed.length === 0) ctx.out.info(`nothing to remove from profile "${ctx.profile}"`);
  else ctx.out.success(`removed ${removed.join(', ')} from profile "${ctx.profile}"`);
}

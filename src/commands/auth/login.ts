import type { Context } from '../../context.js';
import { AuthError, UsageError } from '../../core/errors.js';
import { readStdin } from '../../core/prompts.js';
import { HttpClient } from '../../core/http.js';
import { probe } from '../../clients/probe.js';
import { validateSettingValue } from '../config/set.js';

const KEYS = {
  bm: { url: 'bm.url', secret: 'bm.token', label: 'bookmark service', secretLabel: 'API token' },
  pipe: { url: 'pipe.url', secret: 'pipe.api-key', label: 'pipeline service', secretLabel: 'API key (apikey:...)' },
  notify: { url: 'notify.url', secret: 'notify.api-key', label: 'notification service', secretLabel: 'API key' },
} as const;

export async function authLogin(ctx: Context, service: keyof typeof KEYS, opts: { url?: string; withToken?: boolean; verify?: boolean }): Promise<void> {
  const keys = KEYS[service];
  let url = opts.url;
  let secret: string;
  if (opts.withToken) {
    secret = (await readStdin(ctx.io)).trim();
    if (!secret) throw new UsageError('no secret on stdin', `Example: ops auth login ${service} --with-token < token.txt`);
  } else {
    if (!ctx.prompter.interactive) {
      throw new UsageError(`ops auth login needs a terminal to ask for the ${keys.secretLabel}`, `In scripts: ops auth login ${service} --with-token < file (or set ${service === 'bm' ? 'OPS_BM_TOKEN' : service === 'pipe' ? 'OPS_PIPE_API_KEY' : 'OPS_NOTIFY_API_KEY'}).`);
    }
    url ??= await ctx.prompter.input(`${keys.label} URL:`, { default: ctx.setting(keys.url).value });
    secret = (await ctx.prompter.password(`${keys.secretLabel}:`)).trim();
  }
  url = validateSettingValue(keys.url, url ?? ctx.setting(keys.url).value!);
  secret = validateSettingValue(keys.secret, secret);

  if (opts.verify !== false) {
    const http = new HttpClient({ baseUrl: url, authorization: `Bearer ${secret}`, serviceName: keys.label, timeoutMs: ctx.timeoutMs(), env: ctx.env });
    const result = await probe(service, http);
    if (result.reachable && !result.authenticated) {
      throw new AuthError(`the ${keys.label} at ${url} refused the ${keys.secretLabel} (HTTP ${result.status}); nothing was saved`);
    }
    if (!result.reachable) ctx.out.warn(`could not reach the ${keys.label} at ${url} (${result.error}); saving anyway`);
  }
  ctx.store.setMany(ctx.profile, { [keys.url]: url, [keys.secret]: secret });
  ctx.out.success(`logged in to the ${keys.label} at ${url} (profile "${ctx.profile}")`);
}

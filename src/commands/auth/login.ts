/** `ops auth login SERVICE`: store a service's URL and secret in the active profile, after checking them. */
import { Argument, Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
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

/** The services one can log in to. */
export const AUTH_SERVICES = ['bm', 'pipe', 'notify'] as const;
export type AuthService = (typeof AUTH_SERVICES)[number];

export interface AuthLoginOptions {
  service: AuthService;
  /** the service base URL (default: the current one) */
  url?: string;
  /** read the secret from stdin */
  withToken?: boolean;
  /** false with --no-verify: store without checking against the service */
  verify?: boolean;
}

export function newCmdAuthLogin(f: Factory, runF: RunFunction<AuthLoginOptions> = runAuthLogin): Command {
  return new Command('login')
    .description('Store the URL and secret of a service in the active profile, after checking them')
    .addArgument(new Argument('<service>', 'which service').choices(AUTH_SERVICES))
    .option('--url <url>', 'the service base URL (default: the current one)')
    .option('--with-token', 'read the secret (token or API key) from stdin')
    .option('--no-verify', 'store without checking against the service')
    .addHelpText(
      'after',
      '\nExamples:\n  ops auth login bm                                  # prompts for URL and token\n  ops auth login bm --url https://links.example.com --with-token < token.txt\n  echo "$FELDERA_API_KEY" | ops auth login pipe --with-token',
    )
    .action((service: AuthService, flags: Omit<AuthLoginOptions, 'service'>) => runWith(f, runF, { ...flags, service }));
}

export async function runAuthLogin(opts: AuthLoginOptions, ctx: Context): Promise<void> {
  const { service } = opts;
  const keys = KEYS[service];
  let url = opts.url;
  let secret: string;
  if (opts.withToken) {
    secret = (await readStdin(ctx.io)).trim();
    if (!secret) throw new UsageError('no secret on stdin', `Example: ops auth login ${service} --with-token < token.txt`);
  } else {
    if (!ctx.prompter.interactive) {
      throw new UsageError(
        `ops auth login needs a terminal to ask for the ${keys.secretLabel}`,
        `In scripts: ops auth login ${service} --with-token < file (or set ${service === 'bm' ? 'OPS_BM_TOKEN' : service === 'pipe' ? 'OPS_PIPE_API_KEY' : 'OPS_NOTIFY_API_KEY'}).`,
      );
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
  await ctx.store.setMany(ctx.profile, { [keys.url]: url, [keys.secret]: secret });
  ctx.out.success(`logged in to the ${keys.label} at ${url} (profile "${ctx.profile}")`);
}

/** `ops auth status [SERVICE]`: what is configured per service and whether it answers (secrets masked). */
import { Argument, Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ExitCode, OpsError } from '../../core/errors.js';
import { maskSecret } from '../../core/settings.js';
import { probe, type ProbeResult } from '../../clients/probe.js';
import { AUTH_SERVICES, type AuthService } from './login.js';

const SERVICES = [
  { id: 'bm', name: 'bookmarks', url: 'bm.url', secret: 'bm.token' },
  { id: 'pipe', name: 'pipelines', url: 'pipe.url', secret: 'pipe.api-key' },
  { id: 'notify', name: 'notifications', url: 'notify.url', secret: 'notify.api-key' },
] as const;

export interface StatusRow {
  service: string;
  url: string;
  credential: string | null;
  source: string;
  state: 'ok' | 'unauthorized' | 'unreachable' | 'error';
  detail: string | null;
}

function stateOf(result: ProbeResult): StatusRow['state'] {
  if (!result.reachable) return 'unreachable';
  if (!result.authenticated) return 'unauthorized';
  return result.status && result.status < 400 ? 'ok' : 'error';
}

export interface AuthStatusOptions {
  /** only this service (the exit code then reflects it) */
  service?: AuthService;
}

export function newCmdAuthStatus(f: Factory, runF: RunFunction<AuthStatusOptions> = runAuthStatus): Command {
  return new Command('status')
    .description('Show what is configured for each service and whether it answers (secrets masked)')
    .addArgument(new Argument('[service]', 'only this service (the exit code then reflects it)').choices(AUTH_SERVICES))
    .addHelpText('after', '\nExamples:\n  ops auth status\n  ops auth status bm && echo "bookmarks ok"')
    .action((service: AuthService | undefined) => runWith(f, runF, { service }));
}

export async function runAuthStatus(opts: AuthStatusOptions, ctx: Context): Promise<void> {
  const { service: only } = opts;
  const chosen = SERVICES.filter((s) => !only || s.id === only);
  const rows: StatusRow[] = await Promise.all(
    chosen.map(async (s) => {
      const secret = ctx.setting(s.secret);
      const result = await probe(s.id, ctx.http(s.id));
      return {
        service: s.name,
        url: ctx.setting(s.url).value!,
        credential: secret.value ? maskSecret(secret.value) : null,
        source: secret.source,
        state: stateOf(result),
        detail: result.error ?? null,
      };
    }),
  );
  if (!ctx.json && ctx.io.stdoutIsTTY) ctx.out.info(`profile: ${ctx.profile}`);
  await ctx.out.list(
    rows,
    [
      { header: 'service', key: 'service' },
      { header: 'url', key: 'url', shrink: true },
      { header: 'credential', get: (r) => r.credential ?? '(none)' },
      { header: 'state', key: 'state', style: (t, r, c) => (r.state === 'ok' ? c.green(t) : r.state === 'unauthorized' ? c.red(t) : c.yellow(t)) },
    ],
    { profile: ctx.profile, services: rows },
  );
  if (only) {
    const row = rows[0]!;
    if (row.state === 'unauthorized') throw new OpsError(`not authenticated with the ${row.service} service`, ExitCode.auth, `Run \`ops auth login ${only}\`.`);
    if (row.state !== 'ok') throw new OpsError(`the ${row.service} service is ${row.state}: ${row.detail ?? ''}`.trim());
  }
}

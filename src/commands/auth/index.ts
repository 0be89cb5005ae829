/** `ops auth login|status|logout`. */
import type { Command } from 'commander';
import { Argument } from 'commander';
import { contextFor } from '../../context.js';

export const AUTH_SERVICES = ['bm', 'pipe', 'notify'] as const;

export function register(cmd: Command): void {
  cmd
    .command('login')
    .description('Store the URL and secret of a service in the active profile, after checking them')
    .addArgument(new Argument('<service>', 'which service').choices(AUTH_SERVICES))
    .option('--url <url>', 'the service base URL (default: the current one)')
    .option('--with-token', 'read the secret (token or API key) from stdin')
    .option('--no-verify', 'store without checking against the service')
    .addHelpText('after', '\nExamples:\n  ops auth login bm                                  # prompts for URL and token\n  ops auth login bm --url https://links.example.com --with-token < token.txt\n  echo "$FELDERA_API_KEY" | ops auth login pipe --with-token')
    .action(async (service: (typeof AUTH_SERVICES)[number], opts: { url?: string; withToken?: boolean; verify?: boolean }, command: Command) =>
      (await import('./login.js')).authLogin(contextFor(command), service, opts),
    );
  cmd
    .command('status')
    .description('Show what is configured for each service and whether it answers (secrets masked)')
    .addArgument(new Argument('[service]', 'only this service (the exit code then reflects it)').choices(AUTH_SERVICES))
    .addHelpText('after', '\nExamples:\n  ops auth status\n  ops auth status bm && echo "bookmarks ok"')
    .action(async (service: (typeof AUTH_SERVICES)[number] | undefined, _opts, command: Command) => (await import('./status.js')).authStatus(contextFor(command), service));
  cmd
    .command('logout')
    .description("Remove a service's secret (or all of them) from the active profile")
    .addArgument(new Argument('[service]', 'only this service').choices(AUTH_SERVICES))
    .addHelpText('after', '\nExamples:\n  ops auth logout bm\n  ops auth logout --yes')
    .action(async (service: (typeof AUTH_SERVICES)[number] | undefined, _opts, command: Command) => (await import('./logout.js')).authLogout(contextFor(command), service));
}

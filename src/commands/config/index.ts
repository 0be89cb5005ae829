/** `ops config list|get|set|unset|profiles`. */
import type { Command } from 'commander';
import { contextFor } from '../../context.js';

export function register(cmd: Command): void {
  cmd.addHelpText('after', '\nSee `ops help config` for where settings live and how they are resolved.');
  cmd
    .command('list')
    .alias('ls')
    .description('Show every setting of the active profile, where it comes from (secrets masked)')
    .addHelpText('after', '\nExamples:\n  ops config list\n  ops config list --profile work --json')
    .action(async (_opts, command: Command) => (await import('./list.js')).configList(contextFor(command)));
  cmd
    .command('get <key>')
    .description('Print one setting (secrets masked unless --show-secret)')
    .option('--show-secret', 'print a secret in full')
    .addHelpText('after', '\nExamples:\n  ops config get bm.url\n  curl -H "Authorization: Bearer $(ops config get bm.token --show-secret)" ...')
    .action(async (key: string, opts: { showSecret?: boolean }, command: Command) => (await import('./get.js')).configGet(contextFor(command), key, opts));
  cmd
    .command('set <key> [value]')
    .description('Set a setting in the active profile (secrets: value from stdin with "-", or a prompt)')
    .addHelpText('after', '\nExamples:\n  ops config set bm.url https://links.example.com\n  printf %s "$TOKEN" | ops config set bm.token -')
    .action(async (key: string, value: string | undefined, _opts, command: Command) => (await import('./set.js')).configSet(contextFor(command), key, value));
  cmd
    .command('unset <key>')
    .description('Remove a setting from the active profile')
    .addHelpText('after', '\nExample:\n  ops config unset pipe.api-key')
    .action(async (key: string, _opts, command: Command) => (await import('./set.js')).configUnset(contextFor(command), key));
  const profiles = cmd
    .command('profiles')
    .description('List profiles (the active one marked)')
    .addHelpText('after', '\nExamples:\n  ops config profiles\n  ops config profiles use work\n  ops config profiles rm old')
    .action(async (_opts, command: Command) => (await import('./profiles.js')).profilesList(contextFor(command)));
  profiles
    .command('use <name>')
    .description('Make a profile the active one')
    .action(async (name: string, _opts, command: Command) => (await import('./profiles.js')).profilesUse(contextFor(command), name));
  profiles
    .command('rm <name>')
    .description('Delete a profile and its secrets')
    .action(async (name: string, _opts, command: Command) => (await import('./profiles.js')).profilesRemove(contextFor(command), name));
}

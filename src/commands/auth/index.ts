/** `ops auth login|status|logout`: wires the verbs; each verb module declares its flags, options and run function. */
import type { Command } from 'commander';
import type { Factory } from '../factory.js';
import { addVerbs } from '../factory.js';
import { newCmdAuthLogin } from './login.js';
import { newCmdAuthLogout } from './logout.js';
import { newCmdAuthStatus } from './status.js';

export { AUTH_SERVICES } from './login.js';

export function register(cmd: Command, f: Factory): void {
  cmd.addHelpText('after', '\nExamples:\n  ops auth login bm\n  ops auth status\n  ops auth logout pipe');
  addVerbs(cmd, newCmdAuthLogin(f), newCmdAuthStatus(f), newCmdAuthLogout(f));
}

/**
 * `ops serve`: run the three services locally (run.ts, in the background with --detach: detach.ts), see and stop
 * the server of a data dir (status.ts, stop.ts, logs.ts), empty a data dir (reset.ts), and manage their users,
 * tokens and keys (admin.ts, keys.ts). Wires the verbs; each verb module declares its flags, options and run function.
 */
import type { Command } from 'commander';
import type { Factory } from '../factory.js';
import { addVerbs } from '../factory.js';
import { describeArguments } from '../help-text.js';
import { newCmdServeToken, newCmdServeUser } from './admin.js';
import { newCmdServeKey } from './keys.js';
import { configureServe } from './run.js';
import { newCmdServeStatus } from './status.js';
import { newCmdServeStop } from './stop.js';
import { newCmdServeLogs } from './logs.js';
import { newCmdServeReset } from './reset.js';

export type { ServeFlags } from './run.js';

export function register(cmd: Command, f: Factory): void {
  configureServe(cmd, f);
  addVerbs(cmd, newCmdServeStatus(f), newCmdServeStop(f), newCmdServeLogs(f), newCmdServeReset(f));
  addVerbs(cmd, newCmdServeUser(f), newCmdServeToken(f));
  describeArguments(cmd, { user: 'the user, by id or email', id: 'the token id (see `ops serve token list`)' });
  addVerbs(cmd, newCmdServeKey(f));
}

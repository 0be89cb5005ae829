/** Placeholder: the `ops hook` tree is built by its own issue. */
import type { Command } from 'commander';
import { OpsError } from '../../core/errors.js';

export function register(cmd: Command): void {
  cmd.action(() => {
    throw new OpsError('`ops hook` is not implemented yet');
  });
}

/** Placeholder: the `ops completion` tree is built by its own issue. */
import type { Command } from 'commander';
import { OpsError } from '../../core/errors.js';

export function register(cmd: Command): void {
  cmd.action(() => {
    throw new OpsError('`ops completion` is not implemented yet');
  });
}

/** The values of `ops serve`'s flags, read and checked (shared by the server command and its admin commands). */
import type { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import { dataDir as defaultDataDir } from '../../core/paths.js';

export function parsePort(raw: string): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535, not "${raw}"`);
  return port;
}

export function parseScale(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0) throw new UsageError(`--retry-scale must be a positive number, not "${raw}"`);
  return scale;
}

/** A flag's positive number (`--query-timeout 2.5`), or undefined when the flag is absent. */
export function parsePositive(flag: string, raw: string | undefined, whole = false): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || (whole && !Number.isInteger(n))) throw new UsageError(`${flag} must be a positive ${whole ? 'whole ' : ''}number, not "${raw}"`);
  return n;
}

/** A cap flag (--max-connections, --max-webhooks, --max-pipelines): a whole number of at least 1. */
export function parseCap(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a whole number of at least 1, not "${raw}"`);
  return n;
}

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag ?? defaultDataDir(env);
}

/** Every admin verb (user, token, key) works on a data directory: its own --data-dir, else `ops serve --data-dir`. */
export interface DataDirOption {
  dataDir?: string;
}

export function dataDirOption(cmd: Command): Command {
  return cmd.option('--data-dir <dir>', 'data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)');
}

/** A verb's own flags with the --data-dir in effect for it (its own, else the one given to `ops serve`). */
export function withDataDir<T extends object>(flags: T, cmd: Command): T & DataDirOption {
  return { ...flags, dataDir: cmd.optsWithGlobals<DataDirOption>().dataDir };
}

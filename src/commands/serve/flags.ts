/** The values of `ops serve`'s flags, read and checked (shared by the server command and its admin commands). */
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

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag ?? defaultDataDir(env);
}

/** Where `ops` keeps its files: XDG locations, overridable for tests and isolated setups. */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.OPS_CONFIG_DIR) return env.OPS_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'ops');
}

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.OPS_DATA_DIR) return env.OPS_DATA_DIR;
  const base = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'ops');
}

export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(base, 'ops');
}

/** Files that can be made again (V8's code cache of the CLI): XDG_CACHE_HOME, else ~/.cache. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'ops');
}

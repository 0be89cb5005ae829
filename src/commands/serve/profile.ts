/**
 * Which CLI profile `ops serve` writes. Rules (issue 14):
 * - a profile written by `ops serve` records the data dir of its server; it belongs to that data dir;
 * - `local` is written only when it is absent or belongs to the same data dir (then its URL is updated);
 *   a `local` from before data dirs were recorded belongs to the default data dir;
 * - a server on another data dir writes `local-<data dir name>` (then `-2`, `-3`, ... when that name belongs to
 *   yet another data dir), or the profile named with `--profile NAME`, which must be absent or its own;
 * - it never writes a profile that belongs to another server or was set up by hand.
 * Pure apart from reading the store.
 */
import { basename } from 'node:path';
import { LOCAL_PROFILE, type ConfigStore } from '../../core/config.js';
import { UsageError } from '../../core/errors.js';

export interface ProfileChoice {
  name: string;
  /** `local` belonged to another data dir: which one (to say so). */
  localOwner?: string;
}

/** The data dir a profile belongs to: recorded, `local` without a record = the default one, else none (hand-made). */
export function profileOwner(store: ConfigStore, name: string, defaultDataDir: string): string | undefined {
  const recorded = store.servedDataDir(name);
  if (recorded !== undefined) return recorded;
  if (name === LOCAL_PROFILE && store.hasProfile(name)) return defaultDataDir;
  return undefined;
}

/** `local-<data dir name>`, made a valid profile name. */
export function profileNameFor(dataDir: string): string {
  const base = basename(dataDir)
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/[^A-Za-z0-9]+$/, '');
  return `${LOCAL_PROFILE}-${base || 'data'}`.slice(0, 56);
}

export function chooseServeProfile(store: ConfigStore, dataDir: string, options: { requested?: string; defaultDataDir: string }): ProfileChoice {
  const free = (name: string) => !store.hasProfile(name) || profileOwner(store, name, options.defaultDataDir) === dataDir;
  if (options.requested !== undefined) {
    const name = options.requested;
    if (free(name)) return { name };
    const owner = profileOwner(store, name, options.defaultDataDir);
    throw new UsageError(
      owner ? `profile "${name}" belongs to the ops serve on ${owner}` : `profile "${name}" was not written by ops serve (it holds settings of your own)`,
      `Pick another name with --profile, or remove it first: ops config profiles rm ${name}`,
    );
  }
  if (free(LOCAL_PROFILE)) return { name: LOCAL_PROFILE };
  const localOwner = profileOwner(store, LOCAL_PROFILE, options.defaultDataDir);
  const base = profileNameFor(dataDir);
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (free(name)) return { name, localOwner };
  }
}

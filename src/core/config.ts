/**
 * The config store: named profiles in $XDG_CONFIG_HOME/ops/config.json, and their secrets in a separate
 * credentials.json with mode 0600. Which profile is active: --profile > OPS_PROFILE > the stored current
 * profile > `local` (written by `ops serve` on its first start).
 * A profile written by `ops serve` records the data dir of the server it belongs to (config.json `servedBy`),
 * so that a server on another data dir never takes it over (see commands/serve/profile.ts).
 */
import Conf from 'conf';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { configDir } from './paths.js';
import { SETTINGS, settingDef } from './settings.js';
import { UsageError } from './errors.js';

type ProfileValues = Record<string, string>;

interface ConfigShape {
  currentProfile?: string;
  profiles: Record<string, ProfileValues>;
  /** profile name -> absolute data dir of the `ops serve` that wrote it */
  servedBy?: Record<string, string>;
}

interface CredentialsShape {
  profiles: Record<string, ProfileValues>;
}

export const LOCAL_PROFILE = 'local';
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function validateProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`invalid profile name "${name}"`, 'Use letters, digits, ".", "_" and "-" (up to 64 characters).');
  }
  return name;
}

export class ConfigStore {
  readonly dir: string;
  private readonly config: Conf<ConfigShape>;
  private readonly credentials: Conf<CredentialsShape>;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.dir = configDir(env);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.config = new Conf<ConfigShape>({
      cwd: this.dir,
      configName: 'config',
      projectSuffix: '',
      defaults: { profiles: {} },
      clearInvalidConfig: false,
    });
    this.credentials = new Conf<CredentialsShape>({
      cwd: this.dir,
      configName: 'credentials',
      projectSuffix: '',
      defaults: { profiles: {} },
      configFileMode: 0o600,
      clearInvalidConfig: false,
    });
    // conf creates the file with the mode only when it writes; make sure an existing file is private too.
    const path = this.credentials.path;
    if (existsSync(path) && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  }

  get configPath(): string {
    return this.config.path;
  }

  get credentialsPath(): string {
    return this.credentials.path;
  }

  profileNames(): string[] {
    const names = new Set([...Object.keys(this.config.get('profiles')), ...Object.keys(this.credentials.get('profiles'))]);
    return [...names].sort();
  }

  hasProfile(name: string): boolean {
    return this.profileNames().includes(name);
  }

  storedCurrentProfile(): string | undefined {
    return this.config.get('currentProfile');
  }

  setCurrentProfile(name: string): void {
    this.config.set('currentProfile', validateProfileName(name));
  }

  /** All values of a profile, secrets included. */
  profile(name: string): Record<string, string> {
    return { ...(this.config.get('profiles')[name] ?? {}), ...(this.credentials.get('profiles')[name] ?? {}) };
  }

  get(profile: string, key: string): string | undefined {
    return this.profile(profile)[key];
  }

  set(profile: string, key: string, value: string): void {
    validateProfileName(profile);
    const def = settingDef(key);
    if (!def) throw new UsageError(`unknown setting "${key}"`, `Known settings: ${SETTINGS.map((s) => s.key).join(', ')}`);
    const store = this.storeFor(def.secret);
    const profiles = { ...store.get('profiles') };
    profiles[profile] = { ...(profiles[profile] ?? {}), [key]: value };
    store.set('profiles', profiles);
  }

  /** Set several values at once (e.g. `ops serve` writing the local profile). */
  setMany(profile: string, values: Record<string, string | undefined>): void {
    for (const [key, value] of Object.entries(values)) if (value !== undefined) this.set(profile, key, value);
  }

  /** The data dir of the `ops serve` that wrote this profile (undefined: not written by a server that recorded it). */
  servedDataDir(profile: string): string | undefined {
    return this.config.get('servedBy')?.[profile];
  }

  /** Write a profile for the server on `dataDir` and record that it belongs to it. */
  writeServedProfile(profile: string, dataDir: string, values: Record<string, string | undefined>): void {
    validateProfileName(profile);
    this.setMany(profile, values);
    this.config.set('servedBy', { ...(this.config.get('servedBy') ?? {}), [profile]: dataDir });
  }

  unset(profile: string, key: string): boolean {
    const def = settingDef(key);
    if (!def) throw new UsageError(`unknown setting "${key}"`, `Known settings: ${SETTINGS.map((s) => s.key).join(', ')}`);
    const store = this.storeFor(def.secret);
    const profiles = { ...store.get('profiles') };
    const current = profiles[profile];
    if (!current || !(key in current)) return false;
    const { [key]: _removed, ...rest } = current;
    profiles[profile] = rest;
    store.set('profiles', profiles);
    return true;
  }

  private storeFor(secret: boolean): Conf<{ profiles: Record<string, ProfileValues> }> {
    return (secret ? this.credentials : this.config) as unknown as Conf<{ profiles: Record<string, ProfileValues> }>;
  }

  deleteProfile(name: string): boolean {
    let found = false;
    for (const store of [this.storeFor(false), this.storeFor(true)]) {
      const profiles = { ...store.get('profiles') };
      if (name in profiles) {
        delete profiles[name];
        store.set('profiles', profiles);
        found = true;
      }
    }
    const servedBy = { ...(this.config.get('servedBy') ?? {}) };
    if (name in servedBy) {
      delete servedBy[name];
      this.config.set('servedBy', servedBy);
    }
    if (this.storedCurrentProfile() === name) this.config.delete('currentProfile');
    return found;
  }
}

/** The active profile name. */
export function activeProfile(flag: string | undefined, env: NodeJS.ProcessEnv, store: ConfigStore): string {
  if (flag) return validateProfileName(flag);
  if (env.OPS_PROFILE) return validateProfileName(env.OPS_PROFILE);
  return store.storedCurrentProfile() ?? (store.hasProfile('default') ? 'default' : LOCAL_PROFILE);
}

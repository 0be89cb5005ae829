/**
 * The config store: named profiles in $XDG_CONFIG_HOME/ops/config.json, and their secrets in a separate
 * credentials.json with mode 0600. Which profile is active: --profile > OPS_PROFILE > the stored current
 * profile > `local` (written by `ops serve` on its first start).
 * A profile written by `ops serve` records the data dir of the server it belongs to (config.json `servedBy`),
 * so that a server on another data dir never takes it over (see commands/serve/profile.ts).
 *
 * Reading is a JSON.parse of the two files, at each call (another `ops` may have written them); writing goes
 * through conf (atomic writes, the file modes), loaded only by a command that writes: conf brings ajv and
 * semver, 190 ms of loading that a command which only reads its profile never pays. So the writing methods
 * are async. A file that is not JSON is an error that names it, never a reset.
 */
import type Conf from 'conf';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from './paths.js';
import { SETTINGS, settingDef } from './settings.js';
import { OpsError, UsageError } from './errors.js';

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
  readonly configPath: string;
  readonly credentialsPath: string;
  private writers?: Promise<{ config: Conf<ConfigShape>; credentials: Conf<CredentialsShape> }>;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.dir = configDir(env);
    this.configPath = join(this.dir, 'config.json');
    this.credentialsPath = join(this.dir, 'credentials.json');
    // conf creates the file with the mode only when it writes; make sure an existing file is private too.
    if (existsSync(this.credentialsPath) && (statSync(this.credentialsPath).mode & 0o077) !== 0) chmodSync(this.credentialsPath, 0o600);
  }

  private config(): ConfigShape {
    return { profiles: {}, ...readJsonFile<Partial<ConfigShape>>(this.configPath) };
  }

  private credentials(): CredentialsShape {
    return { profiles: {}, ...readJsonFile<Partial<CredentialsShape>>(this.credentialsPath) };
  }

  /** The conf stores that write the two files (conf is loaded here, on the first write). */
  private writer(): Promise<{ config: Conf<ConfigShape>; credentials: Conf<CredentialsShape> }> {
    this.writers ??= import('conf').then(({ default: ConfClass }) => {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const common = { cwd: this.dir, projectSuffix: '', defaults: { profiles: {} }, clearInvalidConfig: false };
      return {
        config: new ConfClass<ConfigShape>({ ...common, configName: 'config' }),
        credentials: new ConfClass<CredentialsShape>({ ...common, configName: 'credentials', configFileMode: 0o600 }),
      };
    });
    return this.writers;
  }

  profileNames(): string[] {
    const names = new Set([...Object.keys(this.config().profiles), ...Object.keys(this.credentials().profiles)]);
    return [...names].sort();
  }

  hasProfile(name: string): boolean {
    return this.profileNames().includes(name);
  }

  storedCurrentProfile(): string | undefined {
    return this.config().currentProfile;
  }

  async setCurrentProfile(name: string): Promise<void> {
    validateProfileName(name);
    (await this.writer()).config.set('currentProfile', name);
  }

  /** All values of a profile, secrets included. */
  profile(name: string): Record<string, string> {
    return { ...(this.config().profiles[name] ?? {}), ...(this.credentials().profiles[name] ?? {}) };
  }

  get(profile: string, key: string): string | undefined {
    return this.profile(profile)[key];
  }

  async set(profile: string, key: string, value: string): Promise<void> {
    validateProfileName(profile);
    const def = knownSetting(key);
    const store = await this.storeFor(def.secret);
    const profiles = { ...store.get('profiles') };
    profiles[profile] = { ...(profiles[profile] ?? {}), [key]: value };
    store.set('profiles', profiles);
  }

  /** Set several values at once (e.g. `ops serve` writing the local profile). */
  async setMany(profile: string, values: Record<string, string | undefined>): Promise<void> {
    for (const [key, value] of Object.entries(values)) if (value !== undefined) await this.set(profile, key, value);
  }

  /** The data dir of the `ops serve` that wrote this profile (undefined: not written by a server that recorded it). */
  servedDataDir(profile: string): string | undefined {
    return this.config().servedBy?.[profile];
  }

  /** Write a profile for the server on `dataDir` and record that it belongs to it. */
  async writeServedProfile(profile: string, dataDir: string, values: Record<string, string | undefined>): Promise<void> {
    validateProfileName(profile);
    await this.setMany(profile, values);
    const { config } = await this.writer();
    config.set('servedBy', { ...(config.get('servedBy') ?? {}), [profile]: dataDir });
  }

  async unset(profile: string, key: string): Promise<boolean> {
    const def = knownSetting(key);
    const store = await this.storeFor(def.secret);
    const profiles = { ...store.get('profiles') };
    const current = profiles[profile];
    if (!current || !(key in current)) return false;
    const { [key]: _removed, ...rest } = current;
    profiles[profile] = rest;
    store.set('profiles', profiles);
    return true;
  }

  private async storeFor(secret: boolean): Promise<Conf<{ profiles: Record<string, ProfileValues> }>> {
    const writers = await this.writer();
    return (secret ? writers.credentials : writers.config) as unknown as Conf<{ profiles: Record<string, ProfileValues> }>;
  }

  async deleteProfile(name: string): Promise<boolean> {
    let found = false;
    for (const store of [await this.storeFor(false), await this.storeFor(true)]) {
      const profiles = { ...store.get('profiles') };
      if (name in profiles) {
        delete profiles[name];
        store.set('profiles', profiles);
        found = true;
      }
    }
    const { config } = await this.writer();
    const servedBy = { ...(config.get('servedBy') ?? {}) };
    if (name in servedBy) {
      delete servedBy[name];
      config.set('servedBy', servedBy);
    }
    if (this.storedCurrentProfile() === name) config.delete('currentProfile');
    return found;
  }
}

function knownSetting(key: string): NonNullable<ReturnType<typeof settingDef>> {
  const def = settingDef(key);
  if (!def) throw new UsageError(`unknown setting "${key}"`, `Known settings: ${SETTINGS.map((s) => s.key).join(', ')}`);
  return def;
}

/** A config file's content ({} when it does not exist); a file that is not a JSON object is an error naming it. */
function readJsonFile<T extends object>(path: string): T {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {} as T;
    throw new OpsError(`cannot read ${path}: ${(err as Error).message}`);
  }
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    throw new OpsError(`${path} is not valid JSON: ${(err as Error).message}`, undefined, 'Fix the file, or move it away to start from an empty configuration.');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new OpsError(`${path} is not a JSON object`, undefined, 'Fix the file, or move it away to start from an empty configuration.');
  return value as T;
}

/** The active profile name. */
export function activeProfile(flag: string | undefined, env: NodeJS.ProcessEnv, store: ConfigStore): string {
  if (flag) return validateProfileName(flag);
  if (env.OPS_PROFILE) return validateProfileName(env.OPS_PROFILE);
  return store.storedCurrentProfile() ?? (store.hasProfile('default') ? 'default' : LOCAL_PROFILE);
}

/**
 * What a command gets: io, output, the prompter, the config store and the resolved settings of the
 * active profile, and HTTP clients per service. Built once per run from the global options, by the run's
 * Factory (commands/factory.ts); there is no module-level context.
 */
import { processIo, type Io } from './core/io.js';
import { Output } from './core/output.js';
import { createPrompter, type Prompter } from './core/prompts.js';
import { ConfigStore, activeProfile } from './core/config.js';
import { SETTINGS, resolveSetting, settingDef, type Resolved } from './core/settings.js';
import { HttpClient } from './core/http.js';
import { countdown } from './core/progress.js';
import { OpsError, UsageError } from './core/errors.js';

export interface GlobalOptions {
  profile?: string;
  json?: boolean;
  /** false with --no-color */
  color?: boolean;
  /** false with --no-input */
  input?: boolean;
  yes?: boolean;
  bmUrl?: string;
  pipeUrl?: string;
  notifyUrl?: string;
  /** seconds */
  timeout?: string;
}

export type ServiceName = 'bm' | 'pipe' | 'notify';

const SERVICE_INFO: Record<ServiceName, { urlKey: string; secretKey: string; name: string; scheme: (secret: string) => string }> = {
  bm: { urlKey: 'bm.url', secretKey: 'bm.token', name: 'bookmark service', scheme: (s) => `Bearer ${s}` },
  pipe: { urlKey: 'pipe.url', secretKey: 'pipe.api-key', name: 'pipeline service', scheme: (s) => `Bearer ${s}` },
  notify: { urlKey: 'notify.url', secretKey: 'notify.api-key', name: 'notification service', scheme: (s) => `Bearer ${s}` },
};

export class Context {
  readonly io: Io;
  readonly out: Output;
  readonly prompter: Prompter;
  readonly env: NodeJS.ProcessEnv;
  readonly options: GlobalOptions;
  private storeInstance?: ConfigStore;
  private profileName?: string;
  private readonly clients = new Map<ServiceName, HttpClient>();

  constructor(options: GlobalOptions, env: NodeJS.ProcessEnv = process.env, io?: Io) {
    this.options = options;
    this.env = env;
    this.io = io ?? processIo({ noColor: options.color === false }, env);
    this.out = new Output(this.io, { json: options.json });
    const noInput = options.input === false || isTruthy(env.OPS_NO_INPUT);
    this.prompter = createPrompter(this.io, { yes: Boolean(options.yes), noInput });
  }

  get json(): boolean {
    return Boolean(this.options.json);
  }

  get store(): ConfigStore {
    this.storeInstance ??= new ConfigStore(this.env);
    return this.storeInstance;
  }

  get profile(): string {
    this.profileName ??= activeProfile(this.options.profile, this.env, this.store);
    return this.profileName;
  }

  /** A setting of the active profile, resolved flag > env > profile > default. */
  setting(key: string): Resolved {
    const def = settingDef(key);
    if (!def) throw new UsageError(`unknown setting "${key}"`, `Known settings: ${SETTINGS.map((s) => s.key).join(', ')}`);
    return resolveSetting(def, { flags: this.options as Record<string, unknown>, env: this.env, profile: this.store.profile(this.profile) });
  }

  timeoutMs(): number {
    const raw = this.options.timeout;
    if (raw === undefined) return 30_000;
    const seconds = Number(raw);
    if (!Number.isFinite(seconds) || seconds < 0) throw new UsageError(`--timeout must be a number of seconds, not "${raw}"`);
    return seconds * 1000;
  }

  /** The HTTP client for a service, with its base URL and credential from the active profile. */
  http(service: ServiceName): HttpClient {
    let client = this.clients.get(service);
    if (!client) {
      const info = SERVICE_INFO[service];
      // a profile named on purpose must exist: a typo would otherwise talk to the default service quietly
      const named = this.options.profile || this.env.OPS_PROFILE || undefined;
      if (named !== undefined && !this.store.hasProfile(this.profile))
        throw new OpsError(
          `no profile named "${this.profile}"`,
          undefined,
          `\`ops config profiles\` lists them; create it with \`ops auth login ${service} --profile ${this.profile}\` or \`ops config set ${info.urlKey} URL --profile ${this.profile}\`.`,
        );
      const url = this.setting(info.urlKey).value!;
      const secret = this.setting(info.secretKey).value;
      client = new HttpClient({
        baseUrl: url,
        authorization: secret ? info.scheme(secret) : undefined,
        serviceName: info.name,
        loginHint: `ops auth login ${service}`,
        timeoutMs: this.timeoutMs(),
        env: this.env,
        waitOutRateLimit: (wait, attempt) =>
          countdown(this.io, wait, (left) => this.out.warnText(`rate limited by the ${info.name}; retrying in ${left}s (attempt ${attempt + 1})`), { json: this.json }),
      });
      this.clients.set(service, client);
    }
    return client;
  }
}

export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Where a run of the command tree reads and writes: the process's own streams and environment by default. */
export interface Runtime {
  io?: Io;
  env?: NodeJS.ProcessEnv;
}

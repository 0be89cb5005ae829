/**
 * The settings `ops` knows, per service, and how each is resolved:
 * flag > OPS_* environment variable > profile > default.
 * Pure: no files are read here (see config.ts for the store).
 */

export type ServiceKey = 'bm' | 'pipe' | 'notify' | 'hook';

export interface SettingDef {
  key: string;
  service: ServiceKey;
  /** Stored in the 0600 credentials file, never printed in full, never taken as a flag value. */
  secret: boolean;
  env: string;
  /** Global flag that overrides it (URLs only; secrets never come from flags). */
  flag?: string;
  description: string;
  default?: string;
}

export const DEFAULT_PORT = 8700;
export const DEFAULT_URL = `http://127.0.0.1:${DEFAULT_PORT}`;

export const SETTINGS: readonly SettingDef[] = [
  { key: 'bm.url', service: 'bm', secret: false, env: 'OPS_BM_URL', flag: 'bmUrl', description: 'Bookmark service base URL', default: DEFAULT_URL },
  { key: 'bm.token', service: 'bm', secret: true, env: 'OPS_BM_TOKEN', description: 'Bookmark API token (Bearer)' },
  { key: 'pipe.url', service: 'pipe', secret: false, env: 'OPS_PIPE_URL', flag: 'pipeUrl', description: 'Pipeline service base URL', default: DEFAULT_URL },
  { key: 'pipe.api-key', service: 'pipe', secret: true, env: 'OPS_PIPE_API_KEY', description: 'Pipeline API key (apikey:...)' },
  { key: 'notify.url', service: 'notify', secret: false, env: 'OPS_NOTIFY_URL', flag: 'notifyUrl', description: 'Notification service base URL', default: `${DEFAULT_URL}/notify` },
  { key: 'notify.api-key', service: 'notify', secret: true, env: 'OPS_NOTIFY_API_KEY', description: 'Notification service API key' },
  { key: 'hook.secret', service: 'hook', secret: true, env: 'OPS_HOOK_SECRET', description: 'Webhook signing secret' },
];

export const OTHER_ENVIRONMENT: readonly { env: string; description: string }[] = [
  { env: 'OPS_PROFILE', description: 'Profile to use (like --profile)' },
  { env: 'OPS_NO_INPUT', description: 'Never prompt (like --no-input)' },
  { env: 'OPS_CONFIG_DIR', description: 'Directory of config.json and credentials.json (default $XDG_CONFIG_HOME/ops)' },
  { env: 'OPS_DATA_DIR', description: 'Data directory of `ops serve` (default $XDG_DATA_HOME/ops)' },
  { env: 'NO_COLOR', description: 'Disable colour (any non-empty value)' },
  { env: 'FORCE_COLOR', description: 'Force colour on (0 turns it off)' },
  { env: 'CLICOLOR', description: '0 disables colour' },
  { env: 'HTTP_PROXY, HTTPS_PROXY, NO_PROXY', description: 'Proxies for outgoing requests' },
  { env: 'API_RATE_LIMIT', description: '`ops serve`: bookmark API requests per minute ("60" or LinkAce "60,1")' },
  { env: 'ENGINE_LOG_JSON', description: '`ops serve`: pipeline logs as one JSON object per line' },
  { env: 'OPS_LOG_LEVEL', description: "`ops serve`: the server's own JSON logs on stdout at this level (info, debug, warn, error)" },
  { env: 'OPS_DEBUG', description: 'Print the stack trace of an unexpected error (any non-empty value)' },
];

export function settingDef(key: string): SettingDef | undefined {
  return SETTINGS.find((s) => s.key === key);
}

export type Source = 'flag' | 'env' | 'profile' | 'default' | 'unset';

export interface Resolved {
  value: string | undefined;
  source: Source;
}

export interface ResolveInputs {
  flags: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  /** The profile's values, secrets included (key -> value). */
  profile: Record<string, string | undefined>;
}

export function resolveSetting(def: SettingDef, { flags, env, profile }: ResolveInputs): Resolved {
  const flag = def.flag ? flags[def.flag] : undefined;
  if (typeof flag === 'string' && flag !== '') return { value: flag, source: 'flag' };
  const fromEnv = env[def.env];
  if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, source: 'env' };
  const fromProfile = profile[def.key];
  if (fromProfile !== undefined && fromProfile !== '') return { value: fromProfile, source: 'profile' };
  if (def.default !== undefined) return { value: def.default, source: 'default' };
  return { value: undefined, source: 'unset' };
}

/** `abcd…wxyz`-style masking: enough to recognise a secret, never enough to use it. */
export function maskSecret(value: string): string {
  if (value.length <= 8) return '*'.repeat(value.length);
  return `${value.slice(0, 4)}…${value.slice(-4)}`;
}

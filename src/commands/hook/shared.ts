/** What the `ops hook` verbs share: the signing secret, the receiver's store, the service client. */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { stateDir } from '../../core/paths.js';
import { readStdin } from '../../core/prompts.js';
import { NotifyClient } from '../../clients/notify.js';
import { cannotRead } from '../../core/file-errors.js';

export type SecretSource = 'file' | 'env' | 'profile' | 'generated';

export interface Secret {
  value: string;
  source: SecretSource;
  /** where it came from, for messages */
  origin: string;
}

/** A file's text with one trailing newline removed (what `echo secret > file` leaves). */
export function readSecretFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    throw new UsageError(cannotRead(`the secret file ${path}`, err));
  }
  const value = text.replace(/\r?\n$/, '');
  if (value === '') throw new UsageError(`the secret file ${path} is empty`);
  return value;
}

/**
 * The signing secret: --secret-file, else OPS_HOOK_SECRET, else the profile's hook.secret.
 * Returns undefined when none is set (callers decide whether that is an error).
 */
export function findSecret(ctx: Context, secretFile: string | undefined): Secret | undefined {
  if (secretFile !== undefined) return { value: readSecretFile(secretFile), source: 'file', origin: secretFile };
  const r = ctx.setting('hook.secret');
  if (r.value === undefined) return undefined;
  return { value: r.value, source: r.source === 'env' ? 'env' : 'profile', origin: r.source === 'env' ? 'OPS_HOOK_SECRET' : `profile "${ctx.profile}"` };
}

export function requireSecret(ctx: Context, secretFile: string | undefined, verb: string): Secret {
  const s = findSecret(ctx, secretFile);
  if (!s) {
    throw new UsageError(`${verb} needs the signing secret`, 'Give --secret-file FILE, set OPS_HOOK_SECRET, or store it with `printf %s "$SECRET" | ops config set hook.secret -`.');
  }
  return s;
}

/** The receiver's state: `$XDG_STATE_HOME/ops/hook`. */
export function hookStateDir(ctx: Context): string {
  return join(stateDir(ctx.env), 'hook');
}

export function defaultStorePath(ctx: Context): string {
  return join(hookStateDir(ctx), 'events.ndjson');
}

/** A secret generated once for `ops hook serve` and kept (0600) next to its store. */
export async function generatedSecret(dir: string): Promise<Secret> {
  const file = join(dir, 'secret');
  if (existsSync(file)) {
    const value = readFileSync(file, 'utf8').trim();
    if (value) return { value, source: 'generated', origin: file };
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // loaded here: the other hook verbs never make a secret
  const { randomBytes } = await import('node:crypto');
  const value = `whsec_${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, value + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return { value, source: 'generated', origin: file };
}

/** Bytes of FILE, or of stdin for `-` / no file. Exact bytes: nothing is trimmed. */
export async function readInput(ctx: Context, file: string | undefined): Promise<Buffer> {
  if (file === undefined || file === '-') {
    if (file === undefined && ctx.io.stdinIsTTY) {
      throw new UsageError('give a FILE, or pipe the payload on stdin (use - for stdin explicitly)');
    }
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return Buffer.concat(chunks);
  }
  try {
    return readFileSync(file);
  } catch (err) {
    throw new UsageError(cannotRead(file, err));
  }
}

export { readStdin };

export function notifyClient(ctx: Context): NotifyClient {
  return new NotifyClient(ctx.http('notify'));
}

/** Parses "a,b c" lists (repeatable flags are joined by the caller). */
/** Commander collector for a repeatable option (each value kept whole; `splitList` splits commas later). */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function splitList(values: string[] | string | undefined): string[] {
  const list = Array.isArray(values) ? values : values === undefined ? [] : [values];
  return list.flatMap((v) => v.split(/[,\s]+/)).filter((v) => v !== '');
}

/** Parses `1mb`, `512kb`, `2048` (bytes). */
export function parseSize(raw: string, flag: string): number {
  const m = /^(\d+)\s*(b|kb|k|mb|m)?$/i.exec(raw.trim());
  if (!m) throw new UsageError(`${flag} must be a size such as 1mb, 256kb or 4096, not "${raw}"`);
  const unit = (m[2] ?? 'b').toLowerCase();
  const n = Number(m[1]) * (unit.startsWith('m') ? 1024 * 1024 : unit.startsWith('k') ? 1024 : 1);
  if (n < 1) throw new UsageError(`${flag} must be at least 1 byte`);
  return n;
}

/** Parses `30s`, `15m`, `2h`, `7d` to ms. */
export function parseDuration(raw: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(raw.trim());
  if (!m) throw new UsageError(`${flag} must be a duration such as 30s, 15m, 2h or 7d, not "${raw}"`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
}

export function parseUrlFlag(raw: string, flag: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new UsageError(`${flag} must be a URL such as http://127.0.0.1:3000/webhooks, not "${raw}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`${flag} must be an http or https URL`);
  return raw;
}

/**
 * API keys for the pipeline API (auth is off unless `ops serve --pipelines-auth`). A key is
 * `apikey:` followed by 128 random alphanumerics, as Feldera's; only its SHA-256 is stored. The key for
 * the local CLI profile is kept in a 0600 file in the service's data directory so the host can hand it
 * out again after a restart.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Errors } from '../shared/errors.js';
import { bearerCredential } from '../../kit/credentials.js';
import { nowIso, uuidv7 } from './model.js';
import type { PipelineStore } from './store.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const LOCAL_KEY_NAME = 'ops-local';

export function generateApiKey(): string {
  let s = 'apikey:';
  for (let i = 0; i < 128; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export interface ApiKeyDescription {
  name: string;
  id: string;
  scopes: string[];
  role: 'write';
}

export class ApiKeys {
  constructor(
    private readonly store: PipelineStore,
    private readonly dir: string,
  ) {}

  /** v0.24's `{name, api_key_id, api_key}` with today's `id` beside (NewApiKeyResponse): both clients read theirs. */
  create(name: string): { id: string; name: string; api_key_id: string; api_key: string } {
    if (typeof name !== 'string' || name.trim() === '') throw Errors.badBody("field 'name' must be a non-empty string");
    if (this.store.apiKeyByName(name)) throw Errors.duplicateName();
    const key = generateApiKey();
    const id = uuidv7();
    this.store.addApiKey({ id, name, hash: hashKey(key), created_at: nowIso() });
    return { id, name, api_key_id: id, api_key: key };
  }

  /**
   * v0.24's `{name, id, scopes}` with today's `role` beside (ApiKeyDescr): a key here may read and write, which
   * today's Feldera calls `write` (its two mintable roles are `read` and `write`).
   */
  list(): ApiKeyDescription[] {
    return this.store.apiKeys().map((k) => ({ name: k.name, id: k.id, scopes: ['Read', 'Write'], role: 'write' }));
  }

  get(name: string): ApiKeyDescription {
    const k = this.store.apiKeyByName(name);
    if (!k) throw Errors.unknownApiKey(name);
    return { name: k.name, id: k.id, scopes: ['Read', 'Write'], role: 'write' };
  }

  delete(name: string): void {
    if (!this.store.deleteApiKey(name)) throw Errors.unknownApiKey(name);
  }

  /** Checks an Authorization header; throws 401 ApiErrors. */
  check(header: string | undefined): void {
    if (!header) throw Errors.unauthorized('Unauthorized: this request needs an `Authorization: Bearer apikey:...` header');
    const key = bearerCredential(header);
    if (key === undefined) throw Errors.unauthorized('Unauthorized: the Authorization header must be `Bearer apikey:...`');
    if (!key.startsWith('apikey:')) throw Errors.invalidApiKey();
    const hash = hashKey(key);
    const row = this.store.apiKeyByHash(hash);
    if (!row || !timingSafeEqual(Buffer.from(row.hash), Buffer.from(hash))) throw Errors.invalidApiKey();
  }

  /** The local profile's key: the stored one if still valid, else a new one. */
  localKey(): string {
    const file = join(this.dir, 'local-apikey');
    if (existsSync(file)) {
      const key = readFileSync(file, 'utf8').trim();
      if (this.store.apiKeyByHash(hashKey(key))) return key;
    }
    if (this.store.apiKeyByName(LOCAL_KEY_NAME)) this.store.deleteApiKey(LOCAL_KEY_NAME);
    const { api_key } = this.create(LOCAL_KEY_NAME);
    writeFileSync(file, api_key + '\n', { mode: 0o600 });
    return api_key;
  }
}

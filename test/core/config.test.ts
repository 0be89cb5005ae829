import { describe, expect, it } from 'vitest';
import { statSync, readFileSync, writeFileSync } from 'node:fs';
import { ConfigStore, activeProfile } from '../../src/core/config.js';
import { SETTINGS, maskSecret, resolveSetting, settingDef } from '../../src/core/settings.js';
import { tempDir } from '../helpers/cli.js';

const envWith = (extra: NodeJS.ProcessEnv = {}) => ({ OPS_CONFIG_DIR: tempDir('ops-cfg-'), ...extra });

describe('ConfigStore', () => {
  it('keeps secrets in a separate 0600 file and plain settings in config.json', async () => {
    const store = new ConfigStore(envWith());
    await store.set('work', 'bm.url', 'https://links.example.com');
    await store.set('work', 'bm.token', 's3cret-token-value');
    expect(statSync(store.credentialsPath).mode & 0o777).toBe(0o600);
    expect(readFileSync(store.configPath, 'utf8')).not.toContain('s3cret');
    expect(readFileSync(store.credentialsPath, 'utf8')).toContain('s3cret-token-value');
    expect(store.profile('work')).toEqual({ 'bm.url': 'https://links.example.com', 'bm.token': 's3cret-token-value' });
  });

  it('lists, unsets and deletes profiles', async () => {
    const store = new ConfigStore(envWith());
    await store.set('a', 'pipe.url', 'http://a');
    await store.set('b', 'hook.secret', 'x');
    expect(store.profileNames()).toEqual(['a', 'b']);
    expect(await store.unset('a', 'pipe.url')).toBe(true);
    expect(await store.unset('a', 'pipe.url')).toBe(false);
    await store.setCurrentProfile('b');
    expect(await store.deleteProfile('b')).toBe(true);
    expect(store.profileNames()).toEqual(['a']);
    expect(store.storedCurrentProfile()).toBeUndefined();
  });

  it('rejects unknown settings and bad profile names', async () => {
    const store = new ConfigStore(envWith());
    await expect(store.set('a', 'bm.nope', 'x')).rejects.toThrow(/unknown setting/);
    await expect(store.set('../etc', 'bm.url', 'x')).rejects.toThrow(/invalid profile name/);
  });

  it('chooses the active profile: flag > OPS_PROFILE > stored > local', async () => {
    const env = envWith();
    const store = new ConfigStore(env);
    expect(activeProfile(undefined, {}, store)).toBe('local');
    await store.setCurrentProfile('stored');
    expect(activeProfile(undefined, {}, store)).toBe('stored');
    expect(activeProfile(undefined, { OPS_PROFILE: 'fromenv' }, store)).toBe('fromenv');
    expect(activeProfile('fromflag', { OPS_PROFILE: 'fromenv' }, store)).toBe('fromflag');
  });
});

describe('setting resolution', () => {
  const url = settingDef('bm.url')!;
  it('follows flag > environment > profile > default', () => {
    const profile = { 'bm.url': 'http://profile' };
    expect(resolveSetting(url, { flags: {}, env: {}, profile: {} })).toEqual({ value: 'http://127.0.0.1:8700', source: 'default' });
    expect(resolveSetting(url, { flags: {}, env: {}, profile })).toEqual({ value: 'http://profile', source: 'profile' });
    expect(resolveSetting(url, { flags: {}, env: { OPS_BM_URL: 'http://env' }, profile })).toEqual({ value: 'http://env', source: 'env' });
    expect(resolveSetting(url, { flags: { bmUrl: 'http://flag' }, env: { OPS_BM_URL: 'http://env' }, profile })).toEqual({ value: 'http://flag', source: 'flag' });
  });
  it('never takes a secret from a flag', () => {
    const token = settingDef('bm.token')!;
    expect(token.flag).toBeUndefined();
    expect(resolveSetting(token, { flags: { bmToken: 'x' }, env: {}, profile: {} }).source).toBe('unset');
  });
  it('has an OPS_* variable for every setting', () => {
    for (const s of SETTINGS) expect(s.env).toMatch(/^OPS_[A-Z_]+$/);
  });
  it('masks secrets', () => {
    expect(maskSecret('apikey:abcdefghijkl')).toBe('apik…ijkl');
    expect(maskSecret('short')).toBe('*****');
  });
});

describe('ConfigStore reading', () => {
  it('reads the files conf wrote, and sees what another store wrote since', async () => {
    const env = envWith();
    const reader = new ConfigStore(env);
    expect(reader.profileNames()).toEqual([]);
    await new ConfigStore(env).set('w', 'bm.url', 'http://w');
    expect(reader.profile('w')).toEqual({ 'bm.url': 'http://w' });
  });

  it('names a config file that is not JSON instead of resetting it', () => {
    const env = envWith();
    const store = new ConfigStore(env);
    writeFileSync(store.configPath, '{"profiles": {');
    expect(() => store.profileNames()).toThrow(/config\.json is not valid JSON/);
    expect(readFileSync(store.configPath, 'utf8')).toBe('{"profiles": {');
  });
});

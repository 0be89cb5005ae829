import { describe, expect, it } from 'vitest';
import { statSync, readFileSync } from 'node:fs';
import { ConfigStore, activeProfile } from '../../src/core/config.js';
import { SETTINGS, maskSecret, resolveSetting, settingDef } from '../../src/core/settings.js';
import { tempDir } from '../helpers/cli.js';

const envWith = (extra: NodeJS.ProcessEnv = {}) => ({ OPS_CONFIG_DIR: tempDir('ops-cfg-'), ...extra });

describe('ConfigStore', () => {
  it('keeps secrets in a separate 0600 file and plain settings in config.json', () => {
    const store = new ConfigStore(envWith());
    store.set('work', 'bm.url', 'https://links.example.com');
    store.set('work', 'bm.token', 's3cret-token-value');
    expect(statSync(store.credentialsPath).mode & 0o777).toBe(0o600);
    expect(readFileSync(store.configPath, 'utf8')).not.toContain('s3cret');
    expect(readFileSync(store.credentialsPath, 'utf8')).toContain('s3cret-token-value');
    expect(store.profile('work')).toEqual({ 'bm.url': 'https://links.example.com', 'bm.token': 's3cret-token-value' });
  });

  it('lists, unsets and deletes profiles', () => {
    const store = new ConfigStore(envWith());
    store.set('a', 'pipe.url', 'http://a');
    store.set('b', 'hook.secret', 'x');
    expect(store.profileNames()).toEqual(['a', 'b']);
    expect(store.unset('a', 'pipe.url')).toBe(true);
    expect(store.unset('a', 'pipe.url')).toBe(false);
    store.setCurrentProfile('b');
    expect(store.deleteProfile('b')).toBe(true);
    expect(store.profileNames()).toEqual(['a']);
    expect(store.storedCurrentProfile()).toBeUndefined();
  });

  it('rejects unknown settings and bad profile names', () => {
    const store = new ConfigStore(envWith());
    expect(() => store.set('a', 'bm.nope', 'x')).toThrow(/unknown setting/);
    expect(() => store.set('../etc', 'bm.url', 'x')).toThrow(/invalid profile name/);
  });

  it('chooses the active profile: flag > OPS_PROFILE > stored > local', () => {
    const env = envWith();
    const store = new ConfigStore(env);
    expect(activeProfile(undefined, {}, store)).toBe('local');
    store.setCurrentProfile('stored');
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

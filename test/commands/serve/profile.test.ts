/** Which profile `ops serve` writes (commands/serve/profile.ts), against a real config store in a temp dir. */
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../src/core/config.js';
import { chooseServeProfile, profileNameFor } from '../../../src/commands/serve/profile.js';
import { tempDir } from '../../helpers/cli.js';

const DEFAULT_DIR = '/home/u/.local/share/ops';
const store = () => new ConfigStore({ OPS_CONFIG_DIR: tempDir('ops-cfg-') });

describe('chooseServeProfile', () => {
  it('takes local when it is absent or already belongs to the same data dir', async () => {
    const s = store();
    expect(chooseServeProfile(s, '/data/a', { defaultDataDir: DEFAULT_DIR })).toEqual({ name: 'local' });
    await s.writeServedProfile('local', '/data/a', { 'bm.url': 'http://127.0.0.1:1', 'bm.token': 't-a' });
    expect(chooseServeProfile(s, '/data/a', { defaultDataDir: DEFAULT_DIR })).toEqual({ name: 'local' });
  });

  it('gives a server on another data dir local-<dir name>, then a numbered one when that name is taken too', async () => {
    const s = store();
    await s.writeServedProfile('local', '/data/a', { 'bm.url': 'http://127.0.0.1:1' });
    expect(chooseServeProfile(s, '/tmp/x', { defaultDataDir: DEFAULT_DIR })).toEqual({ name: 'local-x', localOwner: '/data/a' });
    await s.writeServedProfile('local-x', '/tmp/x', { 'bm.url': 'http://127.0.0.1:2' });
    expect(chooseServeProfile(s, '/tmp/x', { defaultDataDir: DEFAULT_DIR }).name).toBe('local-x');
    expect(chooseServeProfile(s, '/elsewhere/x', { defaultDataDir: DEFAULT_DIR }).name).toBe('local-x-2');
    // a hand-made profile of that name is never taken over either
    await s.set('local-y', 'bm.url', 'https://links.example.com');
    expect(chooseServeProfile(s, '/tmp/y', { defaultDataDir: DEFAULT_DIR }).name).toBe('local-y-2');
  });

  it("treats a local profile from before data dirs were recorded as the default data dir's", async () => {
    const s = store();
    await s.set('local', 'bm.url', 'http://127.0.0.1:8700');
    expect(chooseServeProfile(s, DEFAULT_DIR, { defaultDataDir: DEFAULT_DIR }).name).toBe('local');
    expect(chooseServeProfile(s, '/tmp/other', { defaultDataDir: DEFAULT_DIR }).name).toBe('local-other');
  });

  it('writes a --profile NAME that is absent or its own, and refuses one that belongs to another server or to the user', async () => {
    const s = store();
    expect(chooseServeProfile(s, '/tmp/x', { requested: 'scratch', defaultDataDir: DEFAULT_DIR })).toEqual({ name: 'scratch' });
    await s.writeServedProfile('scratch', '/tmp/x', { 'bm.url': 'http://127.0.0.1:3' });
    expect(chooseServeProfile(s, '/tmp/x', { requested: 'scratch', defaultDataDir: DEFAULT_DIR })).toEqual({ name: 'scratch' });
    expect(() => chooseServeProfile(s, '/tmp/z', { requested: 'scratch', defaultDataDir: DEFAULT_DIR })).toThrow(/profile "scratch" belongs to the ops serve on \/tmp\/x/);
    await s.set('work', 'bm.url', 'https://links.example.com');
    expect(() => chooseServeProfile(s, '/tmp/x', { requested: 'work', defaultDataDir: DEFAULT_DIR })).toThrow(/not written by ops serve/);
  });

  it('makes a valid profile name of any data dir name', async () => {
    expect(profileNameFor('/tmp/my data (2)')).toBe('local-my-data-2');
    expect(profileNameFor('/')).toBe('local-data');
    expect(profileNameFor('/x/.hidden')).toBe('local-hidden');
  });

  it('forgets the owner when the profile is deleted', async () => {
    const s = store();
    await s.writeServedProfile('local', '/data/a', { 'bm.url': 'http://127.0.0.1:1' });
    await s.deleteProfile('local');
    expect(s.servedDataDir('local')).toBeUndefined();
    expect(chooseServeProfile(s, '/data/b', { defaultDataDir: DEFAULT_DIR }).name).toBe('local');
  });
});

/**
 * `ops serve` on a data dir whose store is damaged (the built binary): it refuses to start, naming the file
 * and what to do, exit 1; with `--reset-store` it moves the file aside and starts.
 */
import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, ops, startServe, tempDir } from '../helpers/cli.js';

describe('ops serve with a damaged store', { timeout: 60_000 }, () => {
  it('refuses to start naming the file and the remedy; --reset-store bookmarks starts with the file moved aside', async () => {
    const dataDir = tempDir('ops-damaged-e2e-');
    mkdirSync(join(dataDir, 'bookmarks'), { recursive: true });
    const file = join(dataDir, 'bookmarks', 'bookmarks.sqlite');
    const db = new Database(file);
    db.exec('CREATE TABLE a (x); CREATE TABLE b (y);');
    db.prepare('INSERT INTO a VALUES (?)').run('z'.repeat(5000));
    const root = (db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'a'").get() as { rootpage: number }).rootpage;
    db.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, (root - 1) * 4096);
    closeSync(fd);

    const env = isolatedEnv();
    const refused = await ops(['serve', '--port', '0', '--data-dir', dataDir], { env });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(file);
    expect(refused.stderr).toContain('damaged');
    expect(refused.stderr).toContain('--reset-store bookmarks');

    const serve = await startServe(['--reset-store', 'bookmarks'], env, dataDir);
    try {
      expect(readdirSync(join(dataDir, 'bookmarks')).some((f) => f.startsWith('bookmarks.sqlite.damaged-'))).toBe(true);
      const health = (await (await fetch(`${serve.url}/health`)).json()) as { services: { bookmarks: { store: string } } };
      expect(health.services.bookmarks.store).toBe('ok');
    } finally {
      await serve.stop();
    }
  });
});

/** `ops serve user|token|key` on a data dir whose store is damaged and no server runs: exit 1, the file named, the remedy given. */
import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, tempDir } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';

describe('admin commands on a damaged store', () => {
  it('ops serve key list names the damaged notifications.db and --reset-store', async () => {
    const dataDir = tempDir('ops-admin-damaged-');
    mkdirSync(join(dataDir, 'notifications'), { recursive: true });
    const file = join(dataDir, 'notifications', 'notifications.db');
    const db = new Database(file);
    db.exec('CREATE TABLE a (x); CREATE TABLE b (y);');
    const root = (db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'a'").get() as { rootpage: number }).rootpage;
    db.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, (root - 1) * 4096);
    closeSync(fd);
    const r = await opsIn(['serve', 'key', 'list', '--data-dir', dataDir], { env: isolatedEnv() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toContain('--reset-store notifications');
  });
});

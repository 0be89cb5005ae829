/**
 * One server per data dir: the lock itself (taken once, probed without taking it, free again when its holder
 * releases it or dies, even by kill -9), server.json trusted only while the lock is held, and a recorded
 * process start time telling a live holder from another process that got its pid.
 */
import { describe, expect, test } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataDirInUseError, dataDirLocked, lockDataDir } from '../../src/services/data-dir-lock.js';
import { SERVER_FILE, ownerOf, processStart, runningServer, sameProcess } from '../../src/services/server-file.js';
import { tempDir } from '../helpers/cli.js';

const BETTER_SQLITE3 = join(import.meta.dirname, '..', '..', 'node_modules', 'better-sqlite3');

/** A child process that holds the lock as the server does (BEGIN EXCLUSIVE on serve.lock) until it is killed. */
async function holdInChild(dataDir: string): Promise<ReturnType<typeof spawn>> {
  const script = `const D = require(${JSON.stringify(BETTER_SQLITE3)}); const db = new D(${JSON.stringify(join(dataDir, 'serve.lock'))}); db.pragma('journal_mode = MEMORY'); db.exec('BEGIN EXCLUSIVE'); console.log('held'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
  });
  return child;
}

describe('the data dir lock', () => {
  test('taken once: a second taker in the same process is refused until the first releases it', () => {
    const dir = tempDir('ops-lock-');
    expect(dataDirLocked(dir)).toBe(false);
    const lock = lockDataDir(dir);
    expect(dataDirLocked(dir)).toBe(true);
    expect(() => lockDataDir(dir, { waitMs: 0 })).toThrow(DataDirInUseError);
    // a probe does not take it, and does not keep it from being released or taken again
    expect(dataDirLocked(dir)).toBe(true);
    lock.release();
    lock.release();
    expect(dataDirLocked(dir)).toBe(false);
    const again = lockDataDir(dir, { waitMs: 0 });
    expect(dataDirLocked(dir)).toBe(true);
    again.release();
  });

  test("another process's lock refuses us; once it is killed with SIGKILL the lock is free and can be taken", async () => {
    const dir = tempDir('ops-lock-');
    const holder = await holdInChild(dir);
    try {
      expect(dataDirLocked(dir)).toBe(true);
      expect(() => lockDataDir(dir, { waitMs: 100 })).toThrow(DataDirInUseError);
    } finally {
      holder.kill('SIGKILL');
      await new Promise((r) => holder.once('exit', r));
    }
    expect(dataDirLocked(dir)).toBe(false);
    const lock = lockDataDir(dir, { waitMs: 0 });
    lock.release();
  });

  test("probes in the holder's own process (ops serve --demo's admin calls) do not drop its lock for other processes", () => {
    const dir = tempDir('ops-lock-');
    const lock = lockDataDir(dir);
    try {
      for (let i = 0; i < 3; i++) expect(dataDirLocked(dir)).toBe(true);
      const script = `const D = require(${JSON.stringify(BETTER_SQLITE3)}); const db = new D(${JSON.stringify(join(dir, 'serve.lock'))}); db.pragma('busy_timeout = 0'); try { db.pragma('journal_mode = MEMORY'); db.exec('BEGIN EXCLUSIVE'); console.log('taken'); } catch (e) { console.log(e.code); }`;
      expect(spawnSync(process.execPath, ['-e', script]).stdout.toString().trim()).toBe('SQLITE_BUSY');
    } finally {
      lock.release();
    }
  });

  test('a lock file that cannot be opened, or is not an SQLite file, is an error naming it (not a refusal)', () => {
    const dir = tempDir('ops-lock-');
    mkdirSync(join(dir, 'serve.lock'));
    expect(() => lockDataDir(dir, { waitMs: 0 })).toThrow(/cannot take the data dir's lock .*serve\.lock/);
    const other = tempDir('ops-lock-');
    writeFileSync(join(other, 'serve.lock'), 'x'.repeat(4096));
    expect(() => lockDataDir(other, { waitMs: 0 })).toThrow(/serve\.lock: it is not an SQLite file/);
  });

  test('a probe never keeps the lock: it can be taken right after each probe, over and over', () => {
    const dir = tempDir('ops-lock-');
    lockDataDir(dir).release();
    for (let i = 0; i < 50; i++) {
      expect(dataDirLocked(dir)).toBe(false);
      const lock = lockDataDir(dir);
      expect(dataDirLocked(dir)).toBe(true);
      lock.release();
    }
  });
});

describe('server.json is trusted only while the lock is held', () => {
  test('a file naming a live process (this one) names no owner when no one holds the lock', () => {
    const dir = tempDir('ops-lock-');
    writeFileSync(join(dir, SERVER_FILE), JSON.stringify({ pid: process.pid, url: 'http://127.0.0.1:1', secret: 's', started_at: '', state: 'running' }));
    expect(ownerOf(dir)).toBeUndefined();
    expect(runningServer(dir)).toBeUndefined();
    const lock = lockDataDir(dir);
    try {
      expect(ownerOf(dir)?.file?.pid).toBe(process.pid);
      expect(runningServer(dir)?.url).toBe('http://127.0.0.1:1');
    } finally {
      lock.release();
    }
  });

  test('while the lock is held, a file of a dead pid, or of a pid now used by another process, names no one', () => {
    const dir = tempDir('ops-lock-');
    const lock = lockDataDir(dir);
    try {
      const dead = spawnSync(process.execPath, ['-e', '']).pid!;
      writeFileSync(join(dir, SERVER_FILE), JSON.stringify({ pid: dead, url: 'http://127.0.0.1:1', secret: 's', started_at: '' }));
      expect(ownerOf(dir)).toEqual({ file: undefined });
      // this process's pid, recorded with another start time: a later process that got the pid
      const start = processStart(process.pid);
      if (start !== undefined) {
        writeFileSync(join(dir, SERVER_FILE), JSON.stringify({ pid: process.pid, pid_start: String(Number(start) + 1), url: 'http://127.0.0.1:1', secret: 's', started_at: '' }));
        expect(ownerOf(dir)).toEqual({ file: undefined });
        writeFileSync(join(dir, SERVER_FILE), JSON.stringify({ pid: process.pid, pid_start: start, url: 'http://127.0.0.1:1', secret: 's', started_at: '' }));
        expect(ownerOf(dir)?.file?.pid).toBe(process.pid);
      }
    } finally {
      lock.release();
    }
  });

  test('sameProcess: alive and, when a start time was recorded, the same start', () => {
    const start = processStart(process.pid);
    expect(sameProcess(process.pid, undefined)).toBe(true);
    expect(sameProcess(process.pid, start)).toBe(true);
    if (start !== undefined) expect(sameProcess(process.pid, `${start}0`)).toBe(false);
    expect(sameProcess(spawnSync(process.execPath, ['-e', '']).pid!, undefined)).toBe(false);
  });

  test('a process that exited but is not reaped yet (a zombie) is not alive', async () => {
    if (!existsSync('/proc/self/stat')) return; // without /proc a zombie cannot be told apart
    // the shell starts a child that exits at once, then becomes `sleep`, which never reaps it
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(d.toString()))));
      const state = () => readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1]![0];
      const end = Date.now() + 10_000;
      while (state() !== 'Z' && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      expect(state()).toBe('Z');
      expect(() => process.kill(zombie, 0)).not.toThrow();
      expect(sameProcess(zombie, undefined)).toBe(false);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

// What `synchronous = FULL` costs the stores of `ops serve` against `NORMAL` (the baseline, same run, same
// disk): WAL-mode SQLite commits of one row (a write answered alone) and of 50 rows (the bookmark
// service's group commit under load), rows shaped like a link. FULL adds one fsync of the WAL per commit;
// NORMAL syncs only at checkpoints (durable across a crash of the process, not across a power cut).
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const quick = Boolean(process.env.BENCH_QUICK);
const COMMITS = quick ? 300 : 2000;

function run(mode, rowsPerCommit) {
  const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'ops-sync-bench-'));
  const db = new Database(join(dir, 'b.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${mode}`);
  db.exec('CREATE TABLE links (id INTEGER PRIMARY KEY, url TEXT UNIQUE, title TEXT, description TEXT, created_at TEXT)');
  const insert = db.prepare('INSERT INTO links (url, title, description, created_at) VALUES (?, ?, ?, ?)');
  const commit = db.transaction((base) => {
    for (let j = 0; j < rowsPerCommit; j++) insert.run(`https://example.com/${base + j}`, `title ${base + j}`, 'd'.repeat(200), new Date().toISOString());
  });
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < COMMITS; i++) commit(i * rowsPerCommit);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return { commitsPerS: (COMMITS / ms) * 1000, usPerCommit: (ms * 1000) / COMMITS };
}

console.log(`store-sync: ${COMMITS} commits each, WAL, on ${process.env.BENCH_DIR ?? tmpdir()}`);
for (const rows of [1, 50]) {
  // interleaved pairs, the better of each
  const normal = [];
  const full = [];
  for (let k = 0; k < 3; k++) {
    normal.push(run('NORMAL', rows));
    full.push(run('FULL', rows));
  }
  const best = (xs) => xs.reduce((a, b) => (b.commitsPerS > a.commitsPerS ? b : a));
  const n = best(normal);
  const f = best(full);
  console.log(
    `  ${String(rows).padStart(2)} row(s)/commit: NORMAL ${n.commitsPerS.toFixed(0)} commits/s (${n.usPerCommit.toFixed(0)} us), FULL ${f.commitsPerS.toFixed(0)} commits/s (${f.usPerCommit.toFixed(0)} us): FULL/NORMAL = ${(f.commitsPerS / n.commitsPerS).toFixed(2)}x`,
  );
}

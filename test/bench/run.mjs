#!/usr/bin/env node
// Runs every test/bench/*.bench.mjs (or those named on the command line) as its own node process.
// BENCH_QUICK=1 asks each bench for small sizes. Exit status is non-zero if any bench crashed.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
console.log(`ops benchmarks (${new Date().toISOString()}, node ${process.version}${process.env.BENCH_QUICK ? ', quick' : ''})`);
for (const file of files) {
  console.log(`\n== ${file}`);
  const res = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=12000', join(dir, file)], { stdio: 'inherit', env: process.env });
  if (res.status !== 0) {
    failed++;
    console.log(`!! ${file} exited with ${res.status ?? res.signal}`);
  }
}
process.exit(failed ? 1 : 0);

/**
 * A worker's heap limit holds under a process started with --max-old-space-size (e.g. from NODE_OPTIONS):
 * V8 let that flag override every later isolate's limit, so a pipeline limited to 128 MiB could grow to the
 * process's size (workers/spawn.ts sets it back before making workers). Run in a child node process started
 * with the flag, against the built spawnWorker.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'ops-spawn-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function workerHeapLimitMb(nodeArgs: string[], env: Record<string, string> = {}): number {
  const worker = join(dir, 'worker.mjs');
  writeFileSync(worker, "import { getHeapStatistics } from 'node:v8';\nimport { parentPort } from 'node:worker_threads';\nparentPort.postMessage(getHeapStatistics().heap_size_limit);\n");
  const main = join(dir, 'main.mjs');
  writeFileSync(
    main,
    `import { spawnWorker } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/services/workers/spawn.js')).href)};
const w = spawnWorker(new URL(${JSON.stringify(pathToFileURL(worker).href)}), { resourceLimits: { maxOldGenerationSizeMb: 64 } });
w.once('message', (bytes) => { console.log(Math.round(bytes / 1048576)); void w.terminate(); });\n`,
  );
  return Number(execFileSync(process.execPath, [...nodeArgs, main], { env: { ...process.env, NODE_OPTIONS: '', ...env }, encoding: 'utf8' }).trim());
}

describe('a worker heap limit', () => {
  it('holds when the process was started with --max-old-space-size, on the command line or in NODE_OPTIONS', () => {
    const plain = workerHeapLimitMb([]);
    expect(plain).toBeLessThan(256); // 64 MiB of old generation plus V8's young generation room
    expect(workerHeapLimitMb(['--max-old-space-size=6000'])).toBe(plain);
    expect(workerHeapLimitMb([], { NODE_OPTIONS: '--max-old-space-size=6000' })).toBe(plain);
  });
});

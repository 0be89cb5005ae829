// The worker's self-profile for benches (worker/cpu-profile.ts): a .cpuprofile (Chrome's format) written at
// stop when a folder is given, nothing done without one.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerCpuProfile } from '../../../../src/services/pipelines/worker/cpu-profile.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('WorkerCpuProfile', () => {
  it('writes a CPU profile into the folder at stop', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ops-cpu-profile-'));
    const profile = new WorkerCpuProfile(dir);
    let x = 0;
    for (let i = 0; i < 1e6; i++) x += Math.sqrt(i);
    expect(x).toBeGreaterThan(0);
    await profile.stop();
    await profile.stop(); // a second stop does nothing
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^pipeline-\d+-\d+\.cpuprofile$/);
    const written = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8'));
    expect(written.nodes.length).toBeGreaterThan(0);
    expect(written.samples.length).toBe(written.timeDeltas.length);
  });

  it('does nothing without a folder', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ops-cpu-profile-'));
    await new WorkerCpuProfile(undefined).stop();
    expect(readdirSync(dir)).toEqual([]);
  });
});

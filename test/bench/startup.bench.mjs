// Start-up time of `ops --version` and `ops --help` against a bare `node -e 0`, measured in the same run,
// interleaved so that machine noise hits all three alike. Targets: --version <= 1.3x, --help <= 1.5x.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/ops', import.meta.url));
const runs = process.env.BENCH_QUICK ? 7 : 31;
const cases = {
  'node -e 0': ['-e', '0'],
  'ops --version': [bin, '--version'],
  'ops --help': [bin, '--help'],
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
const time = (args) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
for (const args of Object.values(cases)) time(args); // warm the file cache
for (let i = 0; i < runs; i++) for (const [name, args] of Object.entries(cases)) times[name].push(time(args));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(times['node -e 0']);
console.log(`median of ${runs} runs each`);
for (const [name, xs] of Object.entries(times)) {
  const m = median(xs);
  const target = name === 'ops --version' ? 1.3 : name === 'ops --help' ? 1.5 : null;
  const ratio = m / base;
  console.log(`${name.padEnd(14)} ${m.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}x node -e 0${target ? `  (target <= ${target}x: ${ratio <= target ? 'met' : 'NOT met'})` : ''}`);
}

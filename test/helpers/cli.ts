/**
 * End-to-end helpers: run the built `ops` binary (bin/ops -> dist/) with execa, in an isolated config
 * directory, and start `ops serve --port 0 --json` on a temporary data directory.
 */
import { execa, type Options, type ResultPromise } from 'execa';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'ops');

export function tempDir(prefix = 'ops-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** An environment with its own config dir and no OPS_* leaking in from the developer's shell. */
export function isolatedEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('OPS_') && k !== 'NO_COLOR' && k !== 'FORCE_COLOR') env[k] = v;
  return { ...env, OPS_CONFIG_DIR: tempDir('ops-config-'), XDG_DATA_HOME: tempDir('ops-xdg-data-'), ...extra };
}

export interface OpsResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Run `ops ARGS` and resolve with the result (never rejects on a non-zero exit). */
export async function ops(args: string[], options: Options & { env?: Record<string, string | undefined> } = {}): Promise<OpsResult> {
  const stdin = options.input === undefined && options.inputFile === undefined ? { stdin: 'ignore' as const } : {};
  const r = await execa('node', [BIN, ...args], { reject: false, extendEnv: false, timeout: 60_000, ...stdin, ...options });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

export interface ServeHandle {
  url: string;
  env: Record<string, string | undefined>;
  dataDir: string;
  process: ResultPromise;
  /** Lines printed on stdout after the listening line. */
  lines: string[];
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Start `ops serve --port 0 --json` and wait for its listening line. */
export async function startServe(extraArgs: string[] = [], env = isolatedEnv(), dataDir = tempDir('ops-data-')): Promise<ServeHandle> {
  const child = execa('node', [BIN, 'serve', '--port', '0', '--json', '--data-dir', dataDir, ...extraArgs], {
    env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    buffer: false,
  });
  const lines: string[] = [];
  const url = await new Promise<string>((resolveUrl, reject) => {
    const rl = createInterface({ input: child.stdout! });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => reject(new Error(`ops serve did not start in 30 s: ${stderr}`)), 30_000);
    rl.on('line', (line) => {
      try {
        const event = JSON.parse(line) as { event?: string; url?: string };
        if (event.event === 'listening' && event.url) {
          clearTimeout(timer);
          resolveUrl(event.url);
          return;
        }
      } catch {
        /* not JSON */
      }
      lines.push(line);
    });
    void child.then((r) => {
      clearTimeout(timer);
      reject(new Error(`ops serve exited (${r.exitCode}): ${stderr}`));
    });
  });
  return {
    url,
    env,
    dataDir,
    process: child,
    lines,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && !child.killed) child.kill(signal);
      await child;
    },
  };
}

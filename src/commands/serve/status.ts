/**
 * `ops serve status`: does a server hold the data dir, which (pid, URL, since when) and how is each service.
 *
 * Exit codes (for scripts): 0 running and every service ok; 1 running but not (yet) well: starting, stopping,
 * a service degraded or down, or /health not answering; 3 not running (no server holds the data dir).
 * The lock decides whether one runs (services/data-dir-lock.ts), server.json says which (server-file.ts).
 */
import { Command } from 'commander';
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { ExitCode, QuietExit } from '../../core/errors.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { examples } from '../help-text.js';
import { dataDirOption, resolveDataDir, withDataDir, type DataDirOption } from './flags.js';

export type ServeStatusOptions = DataDirOption;

export interface ServeStatus {
  running: boolean;
  /** running, starting, stopping, or not running */
  state: string;
  dataDir: string;
  pid?: number;
  url?: string;
  startedAt?: string;
  /** each service's state as /health reports it */
  services?: Record<string, string>;
  /** why the services' states are not known */
  error?: string;
}

export function newCmdServeStatus(f: Factory, runF: RunFunction<ServeStatusOptions> = runServeStatus): Command {
  return dataDirOption(
    new Command('status')
      .description('Is a server running on the data dir: its pid, URL and each service (exit 0 running, 1 not well, 3 not running)')
      .addHelpText(
        'after',
        examples('ops serve status', 'ops serve status --json | jq .services', 'ops serve status >/dev/null || ops serve --detach') +
          '\n\nExit codes: 0 running and every service ok; 1 running but starting, stopping, or a service not ok;\n3 no server runs on the data dir.\n',
      ),
  ).action((flags: ServeStatusOptions, cmd: Command) => runWith(f, runF, withDataDir(flags, cmd)));
}

/** The status of the server on a data dir (never throws for a server that does not answer). */
export async function serveStatus(dataDir: string): Promise<ServeStatus> {
  const { ownerOf } = await import('../../services/server-file.js');
  const owner = ownerOf(dataDir);
  if (!owner) return { running: false, state: 'not running', dataDir };
  const file = owner.file;
  const status: ServeStatus = { running: true, state: file?.state ?? 'starting', dataDir, pid: file?.pid, url: file?.url, startedAt: file?.started_at };
  if (!file?.url) return { ...status, error: 'not listening yet' };
  try {
    const [{ HttpClient }, { serveHealth }] = await Promise.all([import('../../core/http.js'), import('../../clients/serve-health.js')]);
    const health = await serveHealth(new HttpClient({ baseUrl: file.url, serviceName: 'ops serve', env: {} }));
    return { ...status, services: Object.fromEntries(Object.entries(health.services).map(([name, h]) => [name, h.status])) };
  } catch (err) {
    return { ...status, error: `GET /health: ${(err as Error).message}` };
  }
}

/** Whether a status is "running and every service ok". */
export const allWell = (s: ServeStatus): boolean => s.running && s.state === 'running' && s.services !== undefined && Object.values(s.services).every((v) => v === 'ok');

export async function runServeStatus(flags: ServeStatusOptions, ctx: Context): Promise<ServeStatus> {
  const status = await serveStatus(resolve(resolveDataDir(flags.dataDir, ctx.env)));
  if (ctx.json) await ctx.out.writeJson(status);
  else await ctx.out.write(statusText(status));
  if (!status.running) throw new QuietExit(ExitCode.notRunning);
  if (!allWell(status)) throw new QuietExit(ExitCode.failure);
  return status;
}

function statusText(s: ServeStatus): string {
  if (!s.running) return `not running (data dir ${s.dataDir})\n`;
  const lines = [
    `${s.state}   pid ${s.pid ?? '?'}${s.url ? `, ${s.url}` : ''}${s.startedAt ? `, since ${s.startedAt}` : ''}`,
    `  data           ${s.dataDir}`,
    ...Object.entries(s.services ?? {}).map(([name, state]) => `  ${name.padEnd(15)}${state}`),
    ...(s.error ? [`  services       unknown: ${s.error}`] : []),
  ];
  return lines.join('\n') + '\n';
}

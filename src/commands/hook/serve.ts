/**
 * `ops hook serve`: a local webhook receiver. Verifies every request's x-signature over the raw
 * body (constant time), de-duplicates by envelope id in a store that survives restarts, prints
 * each event (NDJSON when piped or with --json, a readable line on a terminal), optionally
 * forwards it re-signed to a local URL, and keeps events for `ops hook replay`.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ExitCode, OpsError, QuietExit, UsageError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { DEFAULT_RETENTION_MS, EventStore } from '../../webhooks/event-store.js';
import type { ReceivedRecord, Receiver, RejectedRecord } from '../../webhooks/receiver.js';
import { defaultStorePath, findSecret, generatedSecret, hookStateDir, parseDuration, parseSize, parseUrlFlag, readSecretFile, splitList, type Secret, collect } from './shared.js';

export const DEFAULT_HOOK_PORT = 8701;

export interface HookServeOptions {
  port?: string;
  host?: string;
  path?: string;
  secretFile?: string;
  forwardTo?: string;
  forwardSecretFile?: string;
  events?: string[];
  /** a file, or false with --no-store */
  store?: string | boolean;
  maxBody?: string;
  retention?: string;
  printSecret?: boolean;
  lenient?: boolean;
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_HOOK_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535, not "${raw}"`);
  return port;
}

function humanLine(ctx: Context, r: ReceivedRecord): string {
  const c = ctx.out.c;
  const time = r.receivedAt.slice(11, 19);
  const dup = r.duplicate ? ` ${c.yellow('duplicate')}` : '';
  let fwd = '';
  if (r.forward) {
    const ok = r.forward.statusCode !== null && r.forward.statusCode >= 200 && r.forward.statusCode < 300;
    const what = r.forward.statusCode !== null ? String(r.forward.statusCode) : (r.forward.error ?? 'error');
    fwd = `  → ${ok ? c.green(what) : c.red(sanitize(what))} ${Math.round(r.forward.durationMs)} ms`;
  }
  return `${c.dim(time)}  ← ${c.bold(sanitize(r.type))}  ${sanitize(r.id)}${dup}${fwd}\n`;
}

export interface RunningHookServer {
  url: string;
  secret: Secret;
  store: EventStore | null;
  receiver: Receiver;
  stop(reason?: string): Promise<void>;
}

/** Starts the receiver and prints the ready line; resolves once listening. */
export async function startHookServer(ctx: Context, flags: HookServeOptions): Promise<RunningHookServer> {
  const port = parsePort(flags.port);
  const host = flags.host ?? '127.0.0.1';
  const path = flags.path ?? '/';
  if (!path.startsWith('/')) throw new UsageError(`--path must start with /, not "${path}"`);
  // the receiver (an HTTP server, signatures: node:crypto) is loaded here: the other hook verbs never serve
  const { DEFAULT_MAX_BODY_BYTES, Receiver } = await import('../../webhooks/receiver.js');
  const maxBody = flags.maxBody !== undefined ? parseSize(flags.maxBody, '--max-body') : DEFAULT_MAX_BODY_BYTES;
  const retention = flags.retention !== undefined ? parseDuration(flags.retention, '--retention') : DEFAULT_RETENTION_MS;
  const forwardTo = flags.forwardTo !== undefined ? parseUrlFlag(flags.forwardTo, '--forward-to') : undefined;
  const forwardSecret = flags.forwardSecretFile !== undefined ? readSecretFile(flags.forwardSecretFile) : undefined;
  const events = splitList(flags.events);

  const secret = findSecret(ctx, flags.secretFile) ?? (await generatedSecret(hookStateDir(ctx)));
  if (flags.printSecret) {
    await ctx.out.write(secret.value + '\n');
    throw new PrintedSecret();
  }

  const storePath = flags.store === false ? null : typeof flags.store === 'string' ? flags.store : defaultStorePath(ctx);
  let store: EventStore | null = null;
  if (storePath) {
    try {
      store = new EventStore(storePath);
    } catch (err) {
      throw new OpsError(`cannot open the event store ${storePath}: ${(err as Error).message}`, undefined, 'Use --store FILE for another place, or --no-store.');
    }
    store.prune(Date.now() - retention);
  }

  const ndjson = ctx.json || !ctx.io.stdoutIsTTY;
  let received = 0;
  let writeFailed = false;
  // One write per event, straight to the stream (node buffers it when the reader is slow); a
  // closed stdout (EPIPE, `| head`) stops the server through the stream's error event.
  // Lines of one turn of the event loop go out in one write.
  let pendingOut = '';
  const flushOut = () => {
    const text = pendingOut;
    pendingOut = '';
    if (writeFailed || text === '') return;
    try {
      ctx.io.stdout.write(text);
    } catch {
      writeFailed = true;
    }
  };
  const emit = (text: string) => {
    if (writeFailed) return;
    if (pendingOut === '') setImmediate(flushOut);
    pendingOut += text;
  };
  ctx.io.stdout.once('error', () => {
    writeFailed = true;
  });
  const receiver = new Receiver({
    secret: secret.value,
    path,
    store: store ?? undefined,
    events,
    forwardTo,
    forwardSecret,
    maxBodyBytes: maxBody,
    lenient: flags.lenient,
    onEvent: (r) => {
      received++;
      // {"event":"received", ...r} without copying r
      emit(ndjson ? `{"event":"received",${JSON.stringify(r).slice(1)}\n` : humanLine(ctx, r));
    },
    onRejected: (r: RejectedRecord) => ctx.out.warn(`rejected a request with ${r.status}: ${r.reason}`),
  });
  let url: string;
  try {
    url = await receiver.listen(port, host);
  } catch (err) {
    store?.close();
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new OpsError(`port ${port} on ${host} is already in use`, undefined, 'Pick another with --port, or --port 0 for a free one.');
    if (e.code === 'EACCES') throw new OpsError(`not allowed to listen on ${host}:${port}`, undefined, 'Use a port above 1023.');
    throw err;
  }
  if (host === '0.0.0.0' || host === '::') ctx.out.warn(`listening on all interfaces (${host}): anyone who can reach this machine can send requests`);

  const ready = {
    event: 'ready',
    url,
    path,
    secretSource: secret.source,
    ...(secret.source === 'generated' ? { secret: secret.value, secretFile: secret.origin } : {}),
    store: storePath,
    events: events.length ? events : ['*'],
    forwardTo: forwardTo ?? null,
    pid: process.pid,
  };
  if (ctx.json) {
    await ctx.out.ndjson(ready);
  } else {
    const lines = [`Ready: receiving webhooks at ${url}`];
    lines.push(secret.source === 'generated' ? `  signing secret ${secret.value} (generated, kept in ${secret.origin}; register it with the sender)` : `  signing secret from ${secret.origin}`);
    lines.push(`  store          ${storePath ?? 'none (duplicates remembered until exit)'}`);
    if (events.length) lines.push(`  events         ${events.join(', ')}`);
    if (forwardTo) lines.push(`  forwarding to  ${forwardTo}`);
    lines.push('Press Ctrl-C to stop.');
    ctx.out.info(lines.join('\n'));
  }

  let stopping: Promise<void> | undefined;
  return {
    url,
    secret,
    store,
    receiver,
    stop(reason = 'stopped') {
      stopping ??= (async () => {
        await receiver.close();
        flushOut();
        store?.close();
        if (ctx.json && !writeFailed) await ctx.out.ndjson({ event: 'stopped', reason, received }).catch(() => {});
      })();
      return stopping;
    },
  };
}

/** Thrown after --print-secret printed it: the command ends with exit 0. */
export class PrintedSecret extends Error {}

/** The command: serve until SIGINT/SIGTERM (or the signal given), then stop cleanly. */
export function newCmdHookServe(f: Factory, runF: RunFunction<HookServeOptions> = runHookServe): Command {
  return new Command('serve')
    .description('Receive webhooks: verify signatures, de-duplicate, print events, forward, keep them for replay')
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', '8701')
    .option('-a, --host <host>', 'interface to listen on', '127.0.0.1')
    .option('--path <path>', 'the path events are POSTed to', '/')
    .option('--secret-file <file>', 'file holding the signing secret (else OPS_HOOK_SECRET, the profile, or a generated one)')
    .option('--forward-to <url>', 'forward each new event (re-signed, same bytes) to this URL')
    .option('--forward-secret-file <file>', 'sign forwarded requests with this secret instead')
    .option('--events <types>', 'only these event types (comma list, repeatable); others get 200 and are dropped', collect)
    .option('--store <file>', 'event store for de-duplication and replay (default $XDG_STATE_HOME/ops/hook/events.ndjson)')
    .option('--no-store', 'keep nothing on disk (duplicates remembered until exit)')
    .option('--max-body <size>', 'largest accepted body, e.g. 1mb, 256kb', '1mb')
    .option('--retention <duration>', 'forget stored events older than this at start', '7d')
    .option('--lenient', 'also accept sha256=-prefixed and upper-case signatures')
    .option('--print-secret', 'print the signing secret in use and exit')
    .addHelpText(
      'after',
      '\nOutput: one JSON line per event on stdout when piped or with --json (a readable line on a terminal);\nwith --json the first line is {"event":"ready","url":...}. Rejections go to stderr.\n\nExamples:\n  OPS_HOOK_SECRET=s3cret ops hook serve --port 8701\n  ops hook serve --port 0 --json | jq -c \'select(.event=="received") | .data\'\n  ops hook serve --secret-file secret.txt --forward-to http://127.0.0.1:3000/webhooks --events payment.failed',
    )
    .action((flags: HookServeOptions) => runWith(f, runF, { ...flags }));
}

export async function runHookServe(flags: HookServeOptions, ctx: Context, stopSignal?: AbortSignal): Promise<void> {
  let server: RunningHookServer;
  try {
    server = await startHookServer(ctx, flags);
  } catch (err) {
    if (err instanceof PrintedSecret) return;
    throw err;
  }
  const reason = await new Promise<string>((resolve) => {
    const finish = (reason: string) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      if (!ctx.json && reason !== 'stdout closed') ctx.out.info(`\n${reason}: stopping`);
      const done = () => resolve(reason);
      void server.stop(reason).then(done, done);
    };
    const onInt = () => finish('SIGINT');
    const onTerm = () => finish('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    ctx.io.stdout.once('error', () => finish('stdout closed'));
    if (stopSignal) {
      if (stopSignal.aborted) finish('aborted');
      else stopSignal.addEventListener('abort', () => finish('aborted'), { once: true });
    }
  });
  // Ctrl-C exits 130 as everywhere else in ops (after a clean stop)
  if (reason === 'SIGINT') throw new QuietExit(ExitCode.interrupted);
}

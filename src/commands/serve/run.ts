/**
 * `ops serve` itself: its flags (the tree's own command is the verb), and the running part: start, announce, write
 * the local profile, signal readiness (--ready-file), shut down on signals. The server is imported when it runs,
 * not when the tree loads. A data dir in use is refused with its owner (owner.ts); --detach hands the whole
 * command line to a background copy of itself (detach.ts).
 */
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { DEFAULT_PORT } from '../../core/settings.js';
import { ExitCode, OpsError, QuietExit, UsageError } from '../../core/errors.js';
import { LOCAL_PROFILE } from '../../core/config.js';
import { dataDir as defaultDataDir } from '../../core/paths.js';
import { chooseServeProfile, type ProfileChoice } from './profile.js';
import type { LocalCredentials, ServeOptions } from '../../services/types.js';
import type { RunningServer } from '../../services/server.js';
import type { Detached } from './detach.js';
import { parseCap, parsePort, parsePositive, parseScale, resolveDataDir } from './flags.js';

/** The flags of `ops serve` (the server itself; `user`, `token` and `key` are its verbs). */
export interface ServeFlags {
  host: string;
  port: string;
  dataDir?: string;
  rateLimit?: string;
  retryScale?: string;
  pipelinesAuth?: boolean;
  outputCase?: string;
  pipelineApi?: string;
  feldera?: string;
  guestAccess?: boolean;
  linkCheck?: boolean;
  metadata?: boolean;
  demo?: boolean;
  logRequests?: boolean;
  fetchPolicy?: string;
  connectorRoot?: string;
  queryTimeout?: string;
  queryMaxRows?: string;
  queryMaxMb?: string;
  /** start in the background and return once every service answers (detach.ts) */
  detach?: boolean;
  /** write this file once every service answers (ready-file.ts) */
  readyFile?: string;
  /** the arguments `ops` was run with (for --detach, which runs them again without --detach) */
  argv?: string[];
  resetStore?: string[];
  maxConnections?: string;
  maxWebhooks?: string;
  maxPipelines?: string;
}

/** Give the tree's own command (`ops serve`, made by the root) its flags and action. */
export function configureServe(cmd: Command, f: Factory, runF: RunFunction<ServeFlags> = runServe): Command {
  return cmd
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', `port to listen on (0 picks a free one)`, String(DEFAULT_PORT))
    .option('--data-dir <dir>', 'where the services keep their data (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)')
    .option('--rate-limit <rate>', 'bookmark API requests per minute per token, "60" or "60,1" (env API_RATE_LIMIT)')
    .option('--retry-scale <factor>', 'multiply webhook retry delays (0.001 runs the whole schedule in seconds)')
    .option('--pipelines-auth', 'require Authorization: Bearer apikey:... on the pipeline API')
    .addOption(
      new Option(
        '--feldera <api>',
        "which Feldera API the pipeline service answers: auto (each client its own: today's SDK and fda get today's statuses, shapes and lower-case names, v0.24 clients and ops pipe v0.24's), or current / v0.24 for every client",
      )
        .choices(['auto', 'current', 'v0.24'])
        .default('auto'),
    )
    .addOption(
      new Option('--output-case <case>', "case of unquoted pipeline names in output for every client (a pipeline's program_config.output_case overrides); an alias of one half of --feldera").choices([
        'upper',
        'lower',
      ]),
    )
    .addOption(new Option('--pipeline-api <api>', "pipeline objects in v0.24's shape or today's for every client; an alias of the other half of --feldera").choices(['v0.24', 'current']))
    .option('--guest-access', 'let guests without a token read public bookmarks')
    .option('--no-link-check', 'do not check link health in the background')
    .option('--no-metadata', 'do not fetch page titles and descriptions for new links')
    .addOption(
      new Option(
        '--fetch-policy <policy>',
        'what outbound requests (link metadata and checks, webhooks, url_input) may reach: public refuses loopback and private addresses (default: any on a loopback bind, public otherwise)',
      ).choices(['public', 'any']),
    )
    .option('--connector-root <dir>', 'the only directory pipeline file connectors may read and write (default <data-dir>/files)')
    .option('--query-timeout <seconds>', 'time limit of an ad-hoc pipeline query, past which it is cancelled (default 30)')
    .option('--query-max-rows <rows>', 'rows an ad-hoc pipeline query may build, and its answer have (default 100000000)')
    .option('--query-max-mb <MiB>', 'largest answer of an ad-hoc pipeline query, in MiB (default 256)')
    .addOption(new Option('--demo', 'start with demo content in every service'))
    .option('--log-requests', 'print one line per request on stderr: time, method, path, status, milliseconds (secrets redacted)')
    .option('-d, --detach', 'start in the background: wait until every service answers, print the URLs and profile, exit 0 (log: ops serve logs)')
    .option('--ready-file <path>', 'write this file (JSON: url, services, profile, pid) once every service answers; removed on stop')
    .option('--max-connections <n>', 'open connections at once; one more is answered 503 and closed (default 1000)')
    .option('--max-webhooks <n>', 'webhook registrations the notification service holds; one more is 403 (default 1000)')
    .option('--max-pipelines <n>', 'pipelines the pipeline service holds; one more is 403 (default 100)')
    .addOption(
      new Option('--reset-store <store...>', 'a store found damaged at start is moved aside (<file>.damaged-<time>) and started empty, instead of refusing to start').choices([
        'bookmarks',
        'pipelines',
        'notifications',
      ]),
    )
    .addHelpText(
      'after',
      `\nOn start it writes the profile "local" (URLs and credentials), so \`ops bm\`, \`ops pipe\` and \`ops hook\`\nin another terminal work with no set-up. A server on another data dir leaves "local" to its owner and\nwrites "local-<data dir name>" instead (or --profile NAME); it prints which. With --json the first stdout line is\n{"event":"listening","url":...}. Stop with Ctrl-C (in-flight requests finish).\nOPS_LOG_LEVEL=info (or debug, warn, ...) adds the server's own JSON logs on stdout; OPS_DEBUG=1 prints\nstack traces of unexpected errors.\n\nExamples:\n  ops serve\n  ops serve --port 0 --json --data-dir ./tmp-data   # its own profile "local-tmp-data" if "local" is taken\n  ops serve --retry-scale 0.001   # webhook retries in milliseconds\n  ops serve --fetch-policy public --connector-root ~/pipeline-files\n\nSecurity (Host/Origin checks, fetch policy, connector root, file modes): docs/security.md`,
    )
    .action((flags: ServeFlags, self: Command) => runWith(f, runF, { ...flags, argv: rootArgs(self) }));
}

/** The arguments of the whole `ops` command line (after node and the script), as commander received them. */
function rootArgs(cmd: Command): string[] {
  let root = cmd;
  while (root.parent) root = root.parent;
  // commander keeps them (untyped) on the root as `rawArgs`: node, the script, then the arguments
  const raw = (root as unknown as { rawArgs?: unknown }).rawArgs;
  return Array.isArray(raw) ? raw.slice(2).map(String) : [];
}

const seconds = (s: number | undefined): number | undefined => (s === undefined ? undefined : Math.round(s * 1000));
const mib = (m: number | undefined): number | undefined => (m === undefined ? undefined : Math.round(m * 1024 * 1024));

/** A repeat of the stopping signal within this long is when-exit's echo of it, not a second Ctrl-C (see stop()). */
const SIGNAL_ECHO_MS = 1000;

export async function runServe(flags: ServeFlags, ctx: Context): Promise<void> {
  const dataDir = resolve(resolveDataDir(flags.dataDir, ctx.env));
  if (flags.detach) {
    if (flags.readyFile !== undefined) throw new UsageError('--ready-file is for the foreground form; --detach waits for readiness itself');
    const { startDetached } = await import('./detach.js');
    return printDetached(ctx, await startDetached(ctx, dataDir, flags.argv ?? []));
  }
  const readyFile = flags.readyFile !== undefined ? resolve(flags.readyFile) : undefined;
  // a data dir in use is refused before the server's modules load (startServer's lock decides all the same)
  const [{ ownerOf }, { dataDirInUse }] = await Promise.all([import('../../services/server-file.js'), import('./owner.js')]);
  if (ownerOf(dataDir)) throw await dataDirInUse(dataDir, 'start ops serve');
  // decided before starting, so that a --profile that is not ours is refused before anything listens
  let choice: ProfileChoice | undefined;
  try {
    choice = chooseServeProfile(ctx.store, dataDir, { requested: ctx.options.profile, defaultDataDir: resolve(defaultDataDir(ctx.env)) });
  } catch (err) {
    if (ctx.options.profile !== undefined) throw err;
    ctx.out.warn(`could not read the profiles: ${(err as Error).message}`);
  }
  const options = serveOptions(flags, ctx, dataDir);
  // every file the server creates later (keys, databases of new services) is private whatever the umask
  process.umask(0o077);
  const server = await startExplained(options, dataDir);

  const profile = await writeProfile(ctx, choice, dataDir, server);

  const services = await announce(ctx, server, options.dataDir, profile, choice);

  // e.g. the pipelines that were running when the server last stopped, started again
  if (!ctx.json) for (const note of server.notes) ctx.out.info(note);

  if (options.demo) await runDemo(ctx, server.url, options.dataDir, server.credentials, profile, options.connectorRoot);
  // the readiness rule: every service answers (and the demo is in) once the file is there
  const ready = readyFile !== undefined ? await import('./ready-file.js') : undefined;
  if (ready && readyFile !== undefined) {
    try {
      ready.writeReadyFile(readyFile, { event: 'ready', pid: process.pid, url: server.url, services, dataDir: options.dataDir, profile });
    } catch (err) {
      await server.close();
      throw new OpsError(`could not write the ready file ${readyFile}: ${(err as Error).message}`);
    }
  }

  const signal = await untilStopped(ctx, server, ready && readyFile !== undefined ? () => ready.removeReadyFile(readyFile) : () => {});
  // Ctrl-C exits 130 as everywhere else in ops; SIGTERM (a service manager's stop) is a clean 0
  if (signal === 'SIGINT') throw new QuietExit(ExitCode.interrupted);
}

/** The server's options from the flags (each checked: a UsageError names the bad one). */
function serveOptions(flags: ServeFlags, ctx: Context, dataDir: string): ServeOptions {
  return {
    host: flags.host,
    port: parsePort(flags.port),
    dataDir,
    apiRateLimit: flags.rateLimit ?? ctx.env.API_RATE_LIMIT,
    retryScale: parseScale(flags.retryScale),
    pipelinesAuth: Boolean(flags.pipelinesAuth),
    ...felderaApi(flags),
    guestAccess: Boolean(flags.guestAccess),
    linkCheck: flags.linkCheck !== false,
    fetchMetadata: flags.metadata !== false,
    demo: Boolean(flags.demo),
    requestLog: flags.logRequests ? (line) => void ctx.io.stderr.write(`${line}\n`) : undefined,
    fetchPolicy: flags.fetchPolicy === 'public' || flags.fetchPolicy === 'any' ? flags.fetchPolicy : undefined,
    connectorRoot: flags.connectorRoot !== undefined ? resolve(flags.connectorRoot) : undefined,
    queryTimeoutMs: seconds(parsePositive('--query-timeout', flags.queryTimeout)),
    queryMaxRows: parsePositive('--query-max-rows', flags.queryMaxRows, true),
    queryMaxBytes: mib(parsePositive('--query-max-mb', flags.queryMaxMb)),
    resetStores: flags.resetStore as ServeOptions['resetStores'],
    maxConnections: parseCap('--max-connections', flags.maxConnections),
    maxWebhooks: parseCap('--max-webhooks', flags.maxWebhooks),
    maxPipelines: parseCap('--max-pipelines', flags.maxPipelines),
  };
}

/** The server started, or why not in the user's terms (the data dir in use, the port taken or forbidden, a damaged store). */
async function startExplained(options: ServeOptions, dataDir: string): Promise<RunningServer> {
  const [{ startServer }, { DataDirInUseError }, { dataDirInUse }] = await Promise.all([import('../../services/server.js'), import('../../services/data-dir-lock.js'), import('./owner.js')]);
  try {
    return await startServer(options);
  } catch (err) {
    if (err instanceof DataDirInUseError) throw await dataDirInUse(dataDir, 'start ops serve');
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new OpsError(`port ${options.port} on ${options.host} is already in use`, undefined, 'Pick another with --port, or --port 0 for a free one.');
    if (e.code === 'EACCES') throw new OpsError(`not allowed to listen on ${options.host}:${options.port}`, undefined, 'Use a port above 1023.');
    // a damaged store (services/store-guard.ts): its message names the file, its remedy what to do
    if ((err as Error).name === 'StoreDamagedError') throw new OpsError((err as Error).message, undefined, (err as { remedy?: string }).remedy);
    throw err;
  }
}

/** The served profile written with the server's URLs and keys: its name, or null when there is none or it could not be written. */
async function writeProfile(ctx: Context, choice: ProfileChoice | undefined, dataDir: string, server: RunningServer): Promise<string | null> {
  const profileValues = {
    'bm.url': server.url,
    'pipe.url': server.url,
    'notify.url': `${server.url}/notify`,
    'bm.token': server.credentials.bmToken,
    'pipe.api-key': server.credentials.pipeApiKey,
    'notify.api-key': server.credentials.notifyApiKey,
  };
  let profile: string | null = choice?.name ?? null;
  if (profile !== null) {
    try {
      await ctx.store.writeServedProfile(profile, dataDir, profileValues);
    } catch (err) {
      ctx.out.warn(`could not write the "${profile}" profile: ${(err as Error).message}`);
      profile = null;
    }
  }
  return profile;
}

/** Says where the services listen (a line of NDJSON with --json): their URLs. */
async function announce(
  ctx: Context,
  server: RunningServer,
  dataDir: string,
  profile: string | null,
  choice: ProfileChoice | undefined,
): Promise<Record<'bookmarks' | 'pipelines' | 'notifications', string>> {
  const services = { bookmarks: `${server.url}/api/v2`, pipelines: `${server.url}/v0`, notifications: `${server.url}/notify` };
  if (ctx.json) {
    await ctx.out.ndjson({ event: 'listening', url: server.url, services, dataDir, profile, pid: process.pid, notes: server.notes });
  } else {
    await ctx.out.write(
      [
        `ops serve listening on ${server.url}`,
        `  bookmarks      ${services.bookmarks}   (openapi: ${server.url}/openapi.json)`,
        `  pipelines      ${services.pipelines}`,
        `  notifications  ${services.notifications}`,
        `  health         ${server.url}/health`,
        `  data           ${dataDir}`,
        profile === null ? '' : profileLine(profile, choice!, ctx.options.profile !== undefined),
        'Press Ctrl-C to stop.',
        '',
      ]
        .filter((l) => l !== '')
        .join('\n') + '\n',
    );
  }
  return services;
}

/**
 * Until SIGINT or SIGTERM stopped the server (in-flight requests finished; a second signal, or a stop longer than
 * SHUTDOWN_LIMIT_MS, exits at once): the signal. `cleanUp` runs once the server is closed (the ready file goes).
 */
function untilStopped(ctx: Context, server: RunningServer, cleanUp: () => void): Promise<string> {
  return new Promise<string>((resolveStop) => {
    let stopping: { signal: string; at: number; echoSeen: boolean } | null = null;
    const stop = (signal: string) => {
      if (stopping) {
        // conf's file writes (atomically) hook SIGINT/SIGTERM through when-exit, which re-raises the signal
        // it caught: that echo arrives right after the first and is not a second request to stop
        if (!stopping.echoSeen && signal === stopping.signal && Date.now() - stopping.at < SIGNAL_ECHO_MS) {
          stopping.echoSeen = true;
          return;
        }
        ctx.out.warn('forced exit');
        process.exit(130);
      }
      stopping = { signal, at: Date.now(), echoSeen: false };
      if (!ctx.json) ctx.out.info(`\n${signal}: shutting down (finishing in-flight requests)…`);
      const force = setTimeout(() => {
        ctx.out.warn(`shutdown took longer than ${SHUTDOWN_LIMIT_MS / 1000} s; exiting (pipelines resume from their input logs)`);
        process.exit(1);
      }, SHUTDOWN_LIMIT_MS);
      force.unref();
      server.close().then(
        async () => {
          cleanUp();
          if (ctx.json) await ctx.out.ndjson({ event: 'stopped', signal });
          resolveStop(signal);
        },
        (err) => {
          cleanUp();
          ctx.out.warn(`error while shutting down: ${(err as Error).message}`);
          resolveStop(signal);
        },
      );
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });
}

/** How long a graceful stop may take: in-flight requests, then each running pipeline's checkpoint (they are written together). */
const SHUTDOWN_LIMIT_MS = 90_000;
/** What `ops serve --detach` says once the background server is ready. */
async function printDetached(ctx: Context, d: Detached): Promise<void> {
  const services = Object.fromEntries(Object.entries(d.health.services).map(([name, h]) => [name, h.status]));
  if (ctx.json) return ctx.out.writeJson({ pid: d.pid, url: d.url, services: d.services, health: services, dataDir: d.dataDir, profile: d.profile, log: d.log });
  const dirFlag = ` --data-dir ${d.dataDir}`;
  await ctx.out.write(
    [
      `ops serve running in the background (pid ${d.pid}) on ${d.url}`,
      `  bookmarks      ${d.services.bookmarks}   ${services.bookmarks ?? ''}`,
      `  pipelines      ${d.services.pipelines}   ${services.pipelines ?? ''}`,
      `  notifications  ${d.services.notifications}   ${services.notifications ?? ''}`,
      `  data           ${d.dataDir}`,
      d.profile === null ? '' : `  profile        "${d.profile}"${d.profile === LOCAL_PROFILE ? ' (ops bm / pipe / hook use it)' : ` (use it with: ops --profile ${d.profile} ...)`}`,
      `  log            ${d.log}   (ops serve logs${dirFlag})`,
      `Stop it with: ops serve stop${dirFlag}`,
      '',
    ]
      .filter((l) => l !== '')
      .join('\n') + '\n',
  );
}

/** The profile line of the listening message: which profile, and how to use it when it is not `local`. */
function profileLine(profile: string, choice: ProfileChoice, requested: boolean): string {
  if (profile === LOCAL_PROFILE) return `  profile        "${LOCAL_PROFILE}" (ops bm / pipe / hook use it)`;
  const why = requested ? '' : choice.localOwner ? `; "${LOCAL_PROFILE}" stays with the server on ${choice.localOwner}` : '';
  return `  profile        "${profile}" (use it with: ops --profile ${profile} bm links list, or OPS_PROFILE=${profile}${why})`;
}

/** Seed the demo content and say what there is to look at. */
async function runDemo(ctx: Context, url: string, dataDir: string, credentials: LocalCredentials, profile: string | null, connectorRoot: string | undefined): Promise<void> {
  const { seedDemo, DEMO_PIPELINE } = await import('./demo.js');
  const notifyKey = credentials.notifyApiKey ?? (profile ? ctx.store.get(profile, 'notify.api-key') : undefined);
  const pipeKey = credentials.pipeApiKey ?? (profile ? ctx.store.get(profile, 'pipe.api-key') : undefined);
  const summary = await seedDemo(url, dataDir, credentials, notifyKey, pipeKey, connectorRoot);
  if (summary.webhook.secret && profile) {
    try {
      await ctx.store.set(profile, 'hook.secret', summary.webhook.secret);
    } catch (err) {
      ctx.out.warn(`could not store the demo webhook secret: ${(err as Error).message}`);
    }
  }
  const { secret: _secret, ...webhook } = summary.webhook;
  if (ctx.json) {
    await ctx.out.ndjson({ event: 'demo', ...summary, webhook });
    return;
  }
  const problems = [summary.bookmarks, summary.pipeline, summary.webhook].map((s) => ('error' in s && s.error ? s.error : '')).filter(Boolean);
  await ctx.out.write(
    [
      '',
      'Demo content:',
      `  bookmarks  ${summary.bookmarks.skipped ? 'already there' : `${summary.bookmarks.created} links in 3 lists`}   try: ops bm links list --tag sql`,
      `  pipeline   "${DEMO_PIPELINE}" ${summary.pipeline.status}   try: ops pipe watch ${DEMO_PIPELINE} revenue_by_product | jq -c .`,
      `             then, in another terminal: echo '{"id":1000,"customer":"ada","product":"laptop","quantity":1,"amount":"1299.00","placed_at":"2026-11-22 10:00:00"}' | ops pipe ingest ${DEMO_PIPELINE} orders`,
      `  webhooks   all events -> ${summary.webhook.url}   try: ops hook serve   (then: ops hook trigger payment.completed)`,
      `  dashboard  ${url}/notify/dashboard`,
      ...problems.map((p) => `  ! ${p}`),
      '',
    ].join('\n') + '\n',
  );
}

/**
 * `--feldera current|v0.24` forces both halves of the protocol (today's: status names and shapes, lower-case
 * names; v0.24's: the description's); `auto` leaves each client its own. `--output-case` and `--pipeline-api`,
 * the older flags, force one half each and win over `--feldera` for that half.
 */
export function felderaApi(flags: Pick<ServeFlags, 'feldera' | 'outputCase' | 'pipelineApi'>): Pick<ServeOptions, 'outputCase' | 'pipelineApi'> {
  const all =
    flags.feldera === 'current' ? { outputCase: 'lower' as const, pipelineApi: 'current' as const } : flags.feldera === 'v0.24' ? { outputCase: 'upper' as const, pipelineApi: 'v0.24' as const } : {};
  const outputCase = flags.outputCase === 'lower' || flags.outputCase === 'upper' ? flags.outputCase : all.outputCase;
  const pipelineApi = flags.pipelineApi === 'current' || flags.pipelineApi === 'v0.24' ? flags.pipelineApi : all.pipelineApi;
  return { ...(outputCase ? { outputCase } : {}), ...(pipelineApi ? { pipelineApi } : {}) };
}

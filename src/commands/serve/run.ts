/**
 * `ops serve` itself: its flags (the tree's own command is the verb), and the running part: start, announce, write
 * the local profile, shut down on signals. The server is imported when it runs, not when the tree loads.
 */
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { DEFAULT_PORT } from '../../core/settings.js';
import { ExitCode, OpsError, QuietExit } from '../../core/errors.js';
import { LOCAL_PROFILE } from '../../core/config.js';
import { dataDir as defaultDataDir } from '../../core/paths.js';
import { chooseServeProfile, type ProfileChoice } from './profile.js';
import type { LocalCredentials, ServeOptions } from '../../services/types.js';
import { parseCap, parsePort, parseScale, resolveDataDir } from './flags.js';

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
  guestAccess?: boolean;
  linkCheck?: boolean;
  metadata?: boolean;
  demo?: boolean;
  logRequests?: boolean;
  fetchPolicy?: string;
  connectorRoot?: string;
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
      new Option('--output-case <case>', "case of unquoted pipeline table, view and column names in output (a pipeline's program_config.output_case overrides); lower for Feldera's SDKs")
        .choices(['upper', 'lower'])
        .default('upper'),
    )
    .addOption(
      new Option(
        '--pipeline-api <api>',
        "pipeline objects in Feldera v0.24's shape (Shutdown, ...) or today's (Stopped, program_error, ...) for today's SDK; today's calls (/stop, /resume, /clear, /dismiss_error, /v0/config) are served either way",
      )
        .choices(['v0.24', 'current'])
        .default('v0.24'),
    )
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
    .addOption(new Option('--demo', 'start with demo content in every service'))
    .option('--log-requests', 'print one line per request on stderr: time, method, path, status, milliseconds (secrets redacted)')
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
    .action((flags: ServeFlags) => runWith(f, runF, { ...flags }));
}

/** A repeat of the stopping signal within this long is when-exit's echo of it, not a second Ctrl-C (see stop()). */
const SIGNAL_ECHO_MS = 1000;

export async function runServe(flags: ServeFlags, ctx: Context): Promise<void> {
  const dataDir = resolve(resolveDataDir(flags.dataDir, ctx.env));
  // decided before starting, so that a --profile that is not ours is refused before anything listens
  let choice: ProfileChoice | undefined;
  try {
    choice = chooseServeProfile(ctx.store, dataDir, { requested: ctx.options.profile, defaultDataDir: resolve(defaultDataDir(ctx.env)) });
  } catch (err) {
    if (ctx.options.profile !== undefined) throw err;
    ctx.out.warn(`could not read the profiles: ${(err as Error).message}`);
  }
  const options: ServeOptions = {
    host: flags.host,
    port: parsePort(flags.port),
    dataDir,
    apiRateLimit: flags.rateLimit ?? ctx.env.API_RATE_LIMIT,
    retryScale: parseScale(flags.retryScale),
    pipelinesAuth: Boolean(flags.pipelinesAuth),
    outputCase: flags.outputCase === 'lower' ? 'lower' : 'upper',
    pipelineApi: flags.pipelineApi === 'current' ? 'current' : 'v0.24',
    guestAccess: Boolean(flags.guestAccess),
    linkCheck: flags.linkCheck !== false,
    fetchMetadata: flags.metadata !== false,
    demo: Boolean(flags.demo),
    requestLog: flags.logRequests ? (line) => void ctx.io.stderr.write(`${line}\n`) : undefined,
    fetchPolicy: flags.fetchPolicy === 'public' || flags.fetchPolicy === 'any' ? flags.fetchPolicy : undefined,
    connectorRoot: flags.connectorRoot !== undefined ? resolve(flags.connectorRoot) : undefined,
    resetStores: flags.resetStore as ServeOptions['resetStores'],
    maxConnections: parseCap('--max-connections', flags.maxConnections),
    maxWebhooks: parseCap('--max-webhooks', flags.maxWebhooks),
    maxPipelines: parseCap('--max-pipelines', flags.maxPipelines),
  };
  // every file the server creates later (keys, databases of new services) is private whatever the umask
  process.umask(0o077);
  const { startServer } = await import('../../services/server.js');
  let server;
  try {
    server = await startServer(options);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new OpsError(`port ${options.port} on ${options.host} is already in use`, undefined, 'Pick another with --port, or --port 0 for a free one.');
    if (e.code === 'EACCES') throw new OpsError(`not allowed to listen on ${options.host}:${options.port}`, undefined, 'Use a port above 1023.');
    // a damaged store (services/store-guard.ts): its message names the file, its remedy what to do
    if ((err as Error).name === 'StoreDamagedError') throw new OpsError((err as Error).message, undefined, (err as { remedy?: string }).remedy);
    throw err;
  }

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
      ctx.store.writeServedProfile(profile, dataDir, profileValues);
    } catch (err) {
      ctx.out.warn(`could not write the "${profile}" profile: ${(err as Error).message}`);
      profile = null;
    }
  }

  const services = { bookmarks: `${server.url}/api/v2`, pipelines: `${server.url}/v0`, notifications: `${server.url}/notify` };
  if (ctx.json) {
    await ctx.out.ndjson({ event: 'listening', url: server.url, services, dataDir: options.dataDir, profile, pid: process.pid });
  } else {
    await ctx.out.write(
      [
        `ops serve listening on ${server.url}`,
        `  bookmarks      ${services.bookmarks}   (openapi: ${server.url}/openapi.json)`,
        `  pipelines      ${services.pipelines}`,
        `  notifications  ${services.notifications}`,
        `  health         ${server.url}/health`,
        `  data           ${options.dataDir}`,
        profile === null ? '' : profileLine(profile, choice!, ctx.options.profile !== undefined),
        'Press Ctrl-C to stop.',
        '',
      ]
        .filter((l) => l !== '')
        .join('\n') + '\n',
    );
  }

  if (options.demo) await runDemo(ctx, server.url, options.dataDir, server.credentials, profile, options.connectorRoot);

  const signal = await new Promise<string>((resolveStop) => {
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
        ctx.out.warn('shutdown took longer than 10 s; exiting');
        process.exit(1);
      }, 10_000);
      force.unref();
      server.close().then(
        async () => {
          if (ctx.json) await ctx.out.ndjson({ event: 'stopped', signal });
          resolveStop(signal);
        },
        (err) => {
          ctx.out.warn(`error while shutting down: ${(err as Error).message}`);
          resolveStop(signal);
        },
      );
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });
  // Ctrl-C exits 130 as everywhere else in ops; SIGTERM (a service manager's stop) is a clean 0
  if (signal === 'SIGINT') throw new QuietExit(ExitCode.interrupted);
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
      ctx.store.set(profile, 'hook.secret', summary.webhook.secret);
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

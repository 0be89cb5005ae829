/** `ops serve`: run the three services locally. */
import type { Command } from 'commander';
import { Option } from 'commander';
import { contextFor } from '../../context.js';
import { DEFAULT_PORT } from '../../core/settings.js';
import { registerAdmin } from './admin.js';
import { registerKeys } from './keys.js';

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
}

export function register(cmd: Command): void {
  cmd
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', `port to listen on (0 picks a free one)`, String(DEFAULT_PORT))
    .option('--data-dir <dir>', 'where the services keep their data (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)')
    .option('--rate-limit <rate>', 'bookmark API requests per minute per token, "60" or "60,1" (env API_RATE_LIMIT)')
    .option('--retry-scale <factor>', 'multiply webhook retry delays (0.001 runs the whole schedule in seconds)')
    .option('--pipelines-auth', 'require Authorization: Bearer apikey:... on the pipeline API')
    .addOption(
      new Option('--output-case <case>', "case of unquoted pipeline table, view and column names in output (a pipeline's program_config.output_case overrides); lower for Feldera's SDKs").choices(['upper', 'lower']).default('upper'),
    )
    .addOption(
      new Option('--pipeline-api <api>', "pipeline objects in Feldera v0.24's shape (Shutdown, ...) or today's (Stopped, program_error, ...) for today's SDK; today's calls (/stop, /resume, /clear, /dismiss_error, /v0/config) are served either way").choices(['v0.24', 'current']).default('v0.24'),
    )
    .option('--guest-access', 'let guests without a token read public bookmarks')
    .option('--no-link-check', 'do not check link health in the background')
    .option('--no-metadata', 'do not fetch page titles and descriptions for new links')
    .addOption(
      new Option('--fetch-policy <policy>', 'what outbound requests (link metadata and checks, webhooks, url_input) may reach: public refuses loopback and private addresses (default: any on a loopback bind, public otherwise)').choices(['public', 'any']),
    )
    .option('--connector-root <dir>', 'the only directory pipeline file connectors may read and write (default <data-dir>/files)')
    .addOption(new Option('--demo', 'start with demo content in every service'))
    .option('--log-requests', 'print one line per request on stderr: time, method, path, status, milliseconds')
    .addHelpText(
      'after',
      `\nOn start it writes the profile "local" (URLs and credentials), so \`ops bm\`, \`ops pipe\` and \`ops hook\`\nin another terminal work with no set-up. A server on another data dir leaves "local" to its owner and\nwrites "local-<data dir name>" instead (or --profile NAME); it prints which. With --json the first stdout line is\n{"event":"listening","url":...}. Stop with Ctrl-C (in-flight requests finish).\nOPS_LOG_LEVEL=info (or debug, warn, ...) adds the server's own JSON logs on stdout; OPS_DEBUG=1 prints\nstack traces of unexpected errors.\n\nExamples:\n  ops serve\n  ops serve --port 0 --json --data-dir ./tmp-data   # its own profile "local-tmp-data" if "local" is taken\n  ops serve --retry-scale 0.001   # webhook retries in milliseconds\n  ops serve --fetch-policy public --connector-root ~/pipeline-files\n\nSecurity (Host/Origin checks, fetch policy, connector root, file modes): docs/security.md`,
    )
    .action(async (flags: ServeFlags, command: Command) => {
      const { runServe } = await import('./run.js');
      await runServe(contextFor(command), flags);
    });
  registerAdmin(cmd);
  registerKeys(cmd);
}

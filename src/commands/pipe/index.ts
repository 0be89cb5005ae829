/** `ops pipe`: SQL pipelines from a SQL file to live changes (a client of Feldera-style pipeline APIs). */
import type { Command } from 'commander';
import { Option } from 'commander';
import { contextFor } from '../../context.js';
import { describeArguments } from '../help-text.js';

export function register(cmd: Command): void {
  cmd.addHelpText(
    'after',
    '\nWorks against `ops serve` (the v0.24-era API) and a real Feldera (today\'s API), detected per server.\nExamples:\n  ops pipe create mine my.sql --start\n  ops pipe ingest shop orders orders.ndjson --wait\n  ops pipe watch shop revenue_by_product | jq -c .\n  ops pipe shutdown mine',
  );

  cmd
    .command('create <name> [file]')
    .description('Create or replace a pipeline from a SQL file (or stdin) and wait for it to compile')
    .option('--description <text>', 'description of the pipeline')
    .option('--workers <n>', 'number of worker threads')
    .option('--replace', 'replace the program of an existing pipeline')
    .option('--start', 'start the pipeline once it compiled')
    .option('--no-wait', 'return at once, without waiting for compilation')
    .addHelpText('after', '\nOn SQL errors each is printed as FILE:LINE:COL: message, with the line and a caret; exit 1.\nExamples:\n  ops pipe create mine my.sql\n  cat my.sql | ops pipe create mine --replace --start\n  ops --timeout 120 pipe create mine my.sql --workers 4')
    .action(async (name: string, file: string | undefined, opts, command: Command) => (await import('./create.js')).pipeCreate(contextFor(command), name, file, opts));

  cmd
    .command('list')
    .alias('ls')
    .description('List the pipelines with their program and deployment state')
    .addHelpText('after', '\nExamples:\n  ops pipe list\n  ops pipe list --json | jq -r \'.[].name\'')
    .action(async (_opts, command: Command) => (await import('./list.js')).pipeList(contextFor(command)));

  cmd
    .command('status <name>')
    .description('Program and deployment state of a pipeline, its errors, and since when')
    .addHelpText('after', '\nExamples:\n  ops pipe status shop\n  ops pipe status shop --json | jq .deployment_status')
    .action(async (name: string, _opts, command: Command) => (await import('./list.js')).pipeStatus(contextFor(command), name));

  cmd
    .command('programs')
    .description('List the programs (GET /v0/programs, or derived from the pipelines on servers without it)')
    .addHelpText('after', '\nExample:\n  ops pipe programs')
    .action(async (_opts, command: Command) => (await import('./list.js')).pipePrograms(contextFor(command)));

  cmd
    .command('start <name>')
    .description('Start a pipeline and wait until it is Running (--timeout SECONDS; exit 8 when it runs out)')
    .option('--no-wait', 'return once the start was accepted')
    .addHelpText('after', '\nWaits for compilation first if the program is still compiling. Exit 1 with the deployment error when it fails.\nExamples:\n  ops pipe start shop\n  ops --timeout 60 pipe start shop || echo "not running"')
    .action(async (name: string, opts, command: Command) => (await import('./lifecycle.js')).pipeStart(contextFor(command), name, opts));

  cmd
    .command('pause <name>')
    .description('Pause a pipeline (deploys it paused when it is shut down) and wait until Paused')
    .option('--no-wait', 'return once the request was accepted')
    .addHelpText('after', '\nExample:\n  ops pipe pause shop')
    .action(async (name: string, opts, command: Command) => (await import('./lifecycle.js')).pipePause(contextFor(command), name, opts));

  cmd
    .command('shutdown <name>')
    .alias('stop')
    .description('Shut a pipeline down (today\'s Feldera: stop) and wait until it is stopped; its state is lost')
    .option('--no-wait', 'return once the request was accepted')
    .option('--force', 'today\'s Feldera: stop without a checkpoint')
    .addHelpText('after', '\nExamples:\n  ops pipe shutdown shop\n  ops pipe stop shop --no-wait')
    .action(async (name: string, opts, command: Command) => (await import('./lifecycle.js')).pipeShutdown(contextFor(command), name, opts));

  cmd
    .command('delete <name>')
    .alias('rm')
    .description('Delete a stopped pipeline (asks for confirmation; --yes in scripts)')
    .addHelpText('after', '\nExamples:\n  ops pipe delete mine\n  ops --yes pipe delete mine')
    .action(async (name: string, _opts, command: Command) => (await import('./lifecycle.js')).pipeDelete(contextFor(command), name));

  cmd
    .command('ingest <name> <table> [file]')
    .description('Send rows or changes to a table: NDJSON, a JSON array, or CSV; "-" or no file reads stdin')
    .addOption(new Option('--format <format>', 'input format (default: from the file name, else JSON)').choices(['json', 'csv']))
    .option('--batch-size <n>', 'records per request', '1000')
    .option('--header', 'CSV: the first line is a header naming the columns (default: when it names them)')
    .option('--no-header', 'CSV: the first line is a row, even if it looks like a header')
    .option('--wait', 'return when the pipeline has processed everything sent')
    .option('--force', 'send even while the pipeline is paused')
    .addHelpText(
      'after',
      '\nJSON records are rows (sent as inserts) or changes: {"insert": row}, {"delete": row}, {"update": row}.\nCSV fields are in the table\'s column order, unless the first line is a header naming the columns (any\norder, any case): then each record is mapped by name.\nExamples:\n  ops pipe ingest shop orders orders.ndjson\n  ops pipe ingest shop orders rows.json --wait\n  cat orders.csv | ops pipe ingest shop orders - --format csv --batch-size 5000',
    )
    .action(async (name: string, table: string, file: string | undefined, opts, command: Command) => (await import('./ingest.js')).pipeIngest(contextFor(command), name, table, file, opts));

  cmd
    .command('watch <name> <views...>')
    .description('Stream the changes of views: one NDJSON line per change, {"view":..,"insert"|"delete":row}')
    .option('--raw', "print the server's frames as they arrive (keep-alives included)")
    .option('--snapshot', 'print the current contents of the views first')
    .option('--count <n>', 'stop after N changes')
    .addHelpText(
      'after',
      '\nEnds with exit 0 when the pipeline shuts down. On a terminal (without --json) a readable live view.\nExamples:\n  ops pipe watch shop revenue_by_product | jq -c .\n  ops pipe watch shop revenue_by_product big_orders --snapshot --count 10 > changes.ndjson',
    )
    .action(async (name: string, views: string[], opts, command: Command) => (await import('./watch.js')).pipeWatch(contextFor(command), name, views, opts));

  cmd
    .command('snapshot <name> <view>')
    .description('Print the current contents of a view (a table, or --json)')
    .addHelpText('after', '\nExamples:\n  ops pipe snapshot shop revenue_by_product\n  ops pipe snapshot shop top_customers --json | jq length')
    .action(async (name: string, view: string, _opts, command: Command) => (await import('./snapshot.js')).pipeSnapshot(contextFor(command), name, view));

  cmd
    .command('query <name> <sql>')
    .description('Run an ad-hoc SELECT over the materialized tables and views of a running pipeline (a table, or --json)')
    .addHelpText('after', `\nExamples:\n  ops pipe query shop "SELECT product, SUM(amount) AS total FROM orders GROUP BY product"\n  ops pipe query shop "SELECT * FROM revenue_by_product WHERE total > 100" --json | jq length`)
    .action(async (name: string, sql: string, _opts, command: Command) => (await import('./query.js')).pipeQuery(contextFor(command), name, sql));

  cmd
    .command('stats <name>')
    .description('Statistics of a running pipeline (a table, or --json); --watch to refresh')
    .option('--watch', 'refresh: redraw on a terminal, one NDJSON record per sample otherwise')
    .option('--interval <seconds>', 'seconds between samples with --watch', '2')
    .addHelpText('after', '\nExamples:\n  ops pipe stats shop\n  ops pipe stats shop --json | jq .global_metrics\n  ops pipe stats shop --watch')
    .action(async (name: string, opts, command: Command) => (await import('./stats.js')).pipeStats(contextFor(command), name, opts));

  cmd
    .command('logs <name>')
    .description('Print the log of a pipeline; --follow to keep printing new lines')
    .option('-f, --follow', 'keep printing new lines until interrupted or the stream ends')
    .addHelpText('after', '\nExamples:\n  ops pipe logs shop\n  ops pipe logs shop --follow | grep ERROR')
    .action(async (name: string, opts, command: Command) => (await import('./logs.js')).pipeLogs(contextFor(command), name, opts));
  describeArguments(cmd, {
    name: 'the pipeline name',
    file: 'the file; "-" or omitted reads stdin',
    'create:file': 'the SQL program; "-" or omitted reads stdin',
    'ingest:file': 'NDJSON, a JSON array or CSV; "-" or omitted reads stdin',
    table: 'the table to feed',
    view: 'the view (or table) to read',
    views: 'one or more views to watch',
    sql: "one SELECT over the pipeline's materialized tables and views",
  });
}

/**
 * `ops pipe`: SQL pipelines from a SQL file to live changes (a client of Feldera-style pipeline APIs). Wires the
 * verbs in help order; each verb module declares its flags, options and run function.
 */
import type { Command } from 'commander';
import type { Factory } from '../factory.js';
import { addVerbs } from '../factory.js';
import { describeArguments } from '../help-text.js';
import { newCmdPipeCreate } from './create.js';
import { newCmdPipeEvents } from './events.js';
import { newCmdPipeIngest } from './ingest.js';
import { newCmdPipeClear, newCmdPipeDelete, newCmdPipePause, newCmdPipeRestart, newCmdPipeShutdown, newCmdPipeStart } from './lifecycle.js';
import { newCmdPipeCopy, newCmdPipeDiff, newCmdPipeProgram } from './program.js';
import { newCmdPipeConfig } from './config.js';
import { newCmdPipeConnector } from './connector.js';
import { newCmdPipeValidate } from './validate.js';
import { newCmdPipeShell } from './shell.js';
import { newCmdPipeList, newCmdPipePrograms, newCmdPipeStatus } from './list.js';
import { newCmdPipeLogs } from './logs.js';
import { newCmdPipeClock } from './clock.js';
import { newCmdPipeMetrics } from './metrics.js';
import { newCmdPipeQuery } from './query.js';
import { newCmdPipeSnapshot } from './snapshot.js';
import { newCmdPipeStats } from './stats.js';
import { newCmdPipeTxn } from './txn.js';
import { newCmdPipeWatch } from './watch.js';

export function register(cmd: Command, f: Factory): void {
  cmd.addHelpText(
    'after',
    "\nWorks against `ops serve` (the v0.24-era API) and a real Feldera (today's API), detected per server.\nExamples:\n  ops pipe create mine my.sql --start\n  ops pipe ingest shop orders orders.ndjson --wait\n  ops pipe watch shop revenue_by_product | jq -c .\n  ops pipe shutdown mine",
  );
  addVerbs(
    cmd,
    newCmdPipeCreate(f),
    newCmdPipeList(f),
    newCmdPipeStatus(f),
    newCmdPipePrograms(f),
    newCmdPipeStart(f),
    newCmdPipePause(f),
    newCmdPipeShutdown(f),
    newCmdPipeRestart(f),
    newCmdPipeDelete(f),
    newCmdPipeClear(f),
    newCmdPipeProgram(f),
    newCmdPipeDiff(f),
    newCmdPipeValidate(f),
    newCmdPipeCopy(f),
    newCmdPipeConfig(f),
    newCmdPipeConnector(f),
    newCmdPipeIngest(f),
    newCmdPipeWatch(f),
    newCmdPipeSnapshot(f),
    newCmdPipeQuery(f),
    newCmdPipeShell(f),
    newCmdPipeStats(f),
    newCmdPipeLogs(f),
    newCmdPipeMetrics(f),
    newCmdPipeEvents(f),
    newCmdPipeTxn(f),
    newCmdPipeClock(f),
  );
  describeArguments(cmd, {
    name: 'the pipeline name',
    file: 'the file; "-" or omitted reads stdin',
    'create:file': 'the SQL program; "-" or omitted reads stdin',
    'ingest:file': 'NDJSON, a JSON array, CSV or a Parquet file; "-" or omitted reads stdin',
    table: 'the table to feed',
    'connector:table': 'the table the connector feeds',
    connector: 'the input connector as the program names it (unnamed-N for one without a name)',
    view: 'the view (or table) to read',
    views: 'one or more views to watch',
    event: 'an event id (a UUID) or "latest"; all events when omitted',
    key: 'a runtime_config key, a dotted path (resources.memory_mb_max)',
    value: 'the value: JSON (4, true, null, {...}), else a string',
    'new-name': 'the name of the copy',
    'validate:file': 'the SQL program; "-" or omitted reads stdin',
    'diff:file': 'the SQL file to compare with; "-" reads stdin',
    sql: "one SELECT over the pipeline's materialized tables and views",
  });
}

/**
 * `ops pipe txn start|commit|status NAME`: today's transactions. Input sent while a transaction is open is
 * held and applied by the commit as one step. `commit --wait` returns once stats show no transaction in
 * progress or a newer transaction id (as today's Python SDK waits), within --timeout (exit 8 when it runs out).
 * Against a v0.24-era server, which has no transactions, a clear message and exit 1.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { addVerbs, runWith, type Factory, type RunFunction } from '../factory.js';
import { examples } from '../help-text.js';
import { OpsError, ExitCode, TimeoutError } from '../../core/errors.js';
import { formatDuration } from '../../core/units.js';
import { sanitize } from '../../core/sanitize.js';
import type { PipelinesClient, TransactionState } from '../../clients/pipelines.js';
import { client, DEFAULT_WAIT, explainToday, POLL_MS, progressFor, sleep, waitLimitMs } from './shared.js';

const WHAT = 'transactions';

/** `ops pipe txn`: the group and its verbs. */
export function newCmdPipeTxn(f: Factory): Command {
  const txn = new Command('txn')
    .description('Transactions: input held until the commit applies it all as one step')
    .addHelpText('after', examples('id=$(ops pipe txn start shop)', 'ops pipe ingest shop orders big.csv', 'ops pipe txn commit shop --wait'));
  return addVerbs(txn, newCmdPipeTxnStart(f), newCmdPipeTxnCommit(f), newCmdPipeTxnStatus(f));
}

export interface PipeTxnOptions {
  name: string;
}

export interface PipeTxnCommitOptions extends PipeTxnOptions {
  /** return once the commit is applied (stats show no transaction in progress, or a newer one) */
  wait?: boolean;
}

export function newCmdPipeTxnStart(f: Factory, runF: RunFunction<PipeTxnOptions> = runPipeTxnStart): Command {
  return new Command('start')
    .arguments('<name>')
    .description('Open a transaction and print its id (--json: {transaction_id})')
    .addHelpText('after', examples('ops pipe txn start shop', 'ops pipe txn start shop --json | jq .transaction_id'))
    .action((name: string) => runWith(f, runF, { name }));
}

export function newCmdPipeTxnCommit(f: Factory, runF: RunFunction<PipeTxnCommitOptions> = runPipeTxnCommit): Command {
  return new Command('commit')
    .arguments('<name>')
    .description('Commit the open transaction; --wait returns once it is applied (--timeout SECONDS; exit 8 when it runs out)')
    .option('--wait', 'return once stats show the transaction committed')
    .addHelpText('after', examples('ops pipe txn commit shop', 'ops --timeout 120 pipe txn commit shop --wait'))
    .action((name: string, flags: Omit<PipeTxnCommitOptions, 'name'>) => runWith(f, runF, { ...flags, name }));
}

export function newCmdPipeTxnStatus(f: Factory, runF: RunFunction<PipeTxnOptions> = runPipeTxnStatus): Command {
  return new Command('status')
    .arguments('<name>')
    .description("The pipeline's transaction: status, id, records held and for how long")
    .addHelpText('after', examples('ops pipe txn status shop', 'ops pipe txn status shop --json | jq -r .transaction_status'))
    .action((name: string) => runWith(f, runF, { name }));
}

/** The transaction fields of stats; a server whose stats have none offers no transactions. */
async function transactionOf(pipes: PipelinesClient, name: string): Promise<TransactionState> {
  let state: TransactionState | undefined;
  try {
    state = await pipes.transaction(name);
  } catch (err) {
    explainToday(err, name, WHAT);
  }
  if (!state)
    throw new OpsError(`this pipeline service does not offer ${WHAT}`, ExitCode.failure, "Its stats report no transaction (the v0.24-era Feldera API had none); today's Feldera and `ops serve` do.");
  return state;
}

export async function runPipeTxnStart(opts: PipeTxnOptions, ctx: Context): Promise<number> {
  const pipes = client(ctx);
  let id: number;
  try {
    id = await pipes.startTransaction(opts.name);
  } catch (err) {
    explainToday(err, opts.name, WHAT);
  }
  if (ctx.json) await ctx.out.writeJson({ transaction_id: id });
  else if (ctx.io.stdoutIsTTY) ctx.out.success(`${opts.name}: transaction ${id} started; input is held until \`ops pipe txn commit ${opts.name}\` applies it as one step`);
  // piped: the id alone, for scripts (id=$(ops pipe txn start shop))
  else await ctx.out.write(`${id}\n`);
  return id;
}

export async function runPipeTxnCommit(opts: PipeTxnCommitOptions, ctx: Context): Promise<void> {
  const { name } = opts;
  const pipes = client(ctx);
  // the id being committed (the server takes none): the wait ends when stats move past it
  const before = opts.wait ? await transactionOf(pipes, name) : undefined;
  try {
    await pipes.commitTransaction(name);
  } catch (err) {
    explainToday(err, name, WHAT);
  }
  let after: TransactionState | undefined;
  if (before) {
    const progress = await progressFor(ctx, `${name}: committing transaction ${before.id}`);
    const deadline = Date.now() + waitLimitMs(ctx, DEFAULT_WAIT.deploy);
    try {
      for (;;) {
        after = await transactionOf(pipes, name);
        if (after.status === 'NoTransaction' || after.id !== before.id) break;
        progress.update(`${name}: transaction ${before.id} ${after.status === 'CommitInProgress' ? 'committing' : 'still open'}`);
        if (Date.now() >= deadline)
          throw new TimeoutError(
            `transaction ${before.id} of ${sanitize(name)} is not committed after the time limit (${after.status})`,
            `Wait longer with --timeout SECONDS; see ops pipe txn status ${name}`,
          );
        await sleep(POLL_MS);
      }
      progress.succeed(`${name}: transaction ${before.id} committed`);
    } catch (err) {
      progress.stop();
      throw err;
    }
  } else ctx.out.info(`${sanitize(name)}: commit initiated`);
  if (ctx.json) await ctx.out.writeJson({ pipeline: name, transaction_id: before?.id ?? null, committed: Boolean(before), transaction_status: after?.status ?? null });
}

export async function runPipeTxnStatus(opts: PipeTxnOptions, ctx: Context): Promise<TransactionState> {
  const state = await transactionOf(client(ctx), opts.name);
  const row = { transaction_status: state.status, transaction_id: state.id, transaction_records: state.records, transaction_msecs: state.msecs };
  await ctx.out.item(row, [
    { header: 'status', get: (r) => r.transaction_status },
    { header: 'id', get: (r) => (r.transaction_id === 0 ? '' : r.transaction_id) },
    { header: 'records', get: (r) => r.transaction_records },
    { header: 'for', get: (r) => (r.transaction_msecs === null ? '' : ctx.out.format === 'table' ? formatDuration(r.transaction_msecs) : r.transaction_msecs) },
  ]);
  return state;
}

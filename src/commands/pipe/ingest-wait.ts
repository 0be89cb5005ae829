/**
 * `ops pipe ingest --wait`: waiting until a pipeline has processed everything sent, whatever the format and
 * however many requests carried it. Today's API answers each ingress request with a completion token (polled on
 * /completion_status); a v0.24-era server has none, so its input counter is read before sending (the baseline)
 * and polled until it covers what was sent and everything is processed. A wait past its deadline is a TimeoutError.
 */
import { ExitCode, OpsError, TimeoutError } from '../../core/errors.js';
import type { PipelinesClient } from '../../clients/pipelines.js';
import { POLL_MS, sleep } from './shared.js';

/** The pipeline's input counter (the baseline of a v0.24-era wait). */
export async function inputRecords(pipes: PipelinesClient, name: string): Promise<number> {
  const stats = await pipes.stats(name);
  const g = (stats.global_metrics ?? {}) as Record<string, unknown>;
  return typeof g.total_input_records === 'number' ? g.total_input_records : 0;
}

/**
 * Waits until everything sent is processed: on the tokens when the server gave any, else until the input
 * counter reaches `expected` (the baseline plus the records sent).
 */
export async function waitIngested(pipes: PipelinesClient, name: string, sent: { tokens: string[]; expected: number }, deadline: number): Promise<void> {
  if (sent.tokens.length > 0) await waitTokens(pipes, name, sent.tokens, deadline);
  else await waitProcessed(pipes, name, sent.expected, deadline);
}

/**
 * Today's API: everything sent processed. A token stands for a position in its input endpoint's stream:
 * complete means every record the endpoint took up to it is processed. Every batch went to the same table
 * in the same format, that is the same HTTP input endpoint, so the last token covers them all: it is the
 * only one polled (one request per poll however many batches were sent).
 */
async function waitTokens(pipes: PipelinesClient, name: string, tokens: string[], deadline: number): Promise<void> {
  for (const token of tokens.slice(-1)) {
    for (;;) {
      const state = await pipes.completionStatus(name, token);
      if (state === 'complete') break;
      if (state === 'restarted') throw new OpsError(`${name} restarted before it processed the data`, ExitCode.failure, 'Some records may be lost; check with ops pipe stats.');
      if (Date.now() >= deadline) throw new TimeoutError(`${name} had not processed everything sent in time`, 'Wait longer with --timeout SECONDS.');
      await sleep(POLL_MS);
    }
  }
}

/** v0.24-era API: no tokens; wait until the input counter covers what was sent and everything is processed. */
async function waitProcessed(pipes: PipelinesClient, name: string, expected: number, deadline: number): Promise<void> {
  for (;;) {
    const stats = await pipes.stats(name);
    const g = (stats.global_metrics ?? {}) as Record<string, number>;
    const input = g.total_input_records ?? 0;
    const done = g.total_processed_records ?? 0;
    if (input >= expected && done >= input && !(g.buffered_input_records > 0)) return;
    if (Date.now() >= deadline) throw new TimeoutError(`${name} had not processed everything sent in time (${done} of ${Math.max(input, expected)} records)`, 'Wait longer with --timeout SECONDS.');
    await sleep(POLL_MS);
  }
}

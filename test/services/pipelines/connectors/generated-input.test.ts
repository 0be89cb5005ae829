/**
 * The generating connectors inside a real runtime (runtime.ts with the engine): steps of bounded size while
 * Running, nothing while Paused, a position that resumes to exactly the rows an uninterrupted run gives,
 * end of input and progress labels at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, type JsonValue } from '../../../../src/engine/index.js';
import { PipelineRuntime } from '../../../../src/services/pipelines/worker/runtime.js';
import { StepBuilder } from '../../../../src/services/pipelines/worker/connectors/generated-input.js';
import { readNexmarkOptions } from '../../../../src/services/pipelines/worker/connectors/nexmark-config.js';
import { NexmarkSource } from '../../../../src/services/pipelines/worker/connectors/nexmark-source.js';
import { TableBinding } from '../../../../src/services/pipelines/worker/ingress/binding.js';
import type { TokenLabel } from '../../../../src/services/pipelines/shared/protocol.js';
import { nexmarkTables } from './nexmark-sql.js';

const root = mkdtempSync(join(tmpdir(), 'ops-gen-unit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Run {
  rt: PipelineRuntime;
  progress: TokenLabel[][];
  failures: Error[];
}

async function runtime(sql: string, positions?: Record<string, JsonValue>): Promise<Run> {
  const c = compile(sql);
  if (!c.ok) throw new Error(JSON.stringify(c.errors));
  const progress: TokenLabel[][] = [];
  const failures: Error[] = [];
  const rt = new PipelineRuntime(c.program, {
    emit: () => {},
    endStreams: () => {},
    log: () => {},
    onFatal: (err) => failures.push(err),
    connectorAccess: { root, fetchPolicy: 'any', maxBytes: 1 << 20 },
    connectorPositions: () => positions,
    connectorProgress: (labels) => progress.push(labels),
  });
  await rt.init();
  return { rt, progress, failures };
}

async function until(cond: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 20_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const rows = (rt: PipelineRuntime, table: string) =>
  rt.circuit
    .contents(table)
    .flatMap((r) => Array.from({ length: r.weight }, () => JSON.stringify(r.row)))
    .sort();

describe('generated input in the runtime', () => {
  const EVENTS = 12_345;
  const sql = nexmarkTables({ events: EVENTS, cores: 2, extraOptions: ', "max_step_size_per_thread": 1500' });

  it('applies steps of at most threads × max_step_size_per_thread records until `events`, then ends its input', async () => {
    const { rt, progress, failures } = await runtime(sql);
    expect(rt.steps).toBe(0);
    rt.resume();
    await until(() => rt.pipelineComplete, 'the end');
    expect(failures).toEqual([]);
    expect(rt.totalProcessedRecords).toBe(EVENTS);
    // never all up front: ceil(12,345 / 3,000) steps of at most 3,000 records
    expect(rt.steps).toBe(Math.ceil(EVENTS / 3000));
    const eps = [...rt.inputs.values()];
    expect(eps.every((e) => e.metrics.end_of_input)).toBe(true);
    expect(eps.map((e) => e.metrics.total_records).reduce((a, b) => a + b)).toBe(EVENTS);
    // progress after every step, and the last labels name every record of each endpoint
    expect(progress.length).toBeGreaterThanOrEqual(rt.steps);
    const last = new Map(progress.flat().map((l) => [l.endpoint, l.count]));
    expect([...last.values()].reduce((a, b) => a + b)).toBe(EVENTS);
    expect(rt.connectorPositions()).toEqual({ 'PERSON.unnamed-0': { events: EVENTS }, 'AUCTION.unnamed-0': { events: EVENTS }, 'BID.unnamed-0': { events: EVENTS } });
    await rt.shutdown();
  });

  it('generates nothing while paused; resumed from its position, it gives exactly the rest of an uninterrupted run', async () => {
    const whole = await runtime(sql);
    whole.rt.resume();
    await until(() => whole.rt.pipelineComplete, 'the whole run');

    const first = await runtime(sql);
    first.rt.resume();
    await until(() => first.rt.steps >= 2, 'two steps');
    first.rt.pause();
    await new Promise((r) => setTimeout(r, 50));
    const steps = first.rt.steps;
    const position = first.rt.connectorPositions();
    await new Promise((r) => setTimeout(r, 100));
    expect(first.rt.steps).toBe(steps);
    expect(first.rt.connectorPositions()).toEqual(position);
    const at = (position['BID.unnamed-0'] as { events: number }).events;
    expect(at).toBe(first.rt.totalProcessedRecords);
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(EVENTS);
    await first.rt.shutdown();

    const rest = await runtime(sql, position);
    rest.rt.resume();
    await until(() => rest.rt.pipelineComplete, 'the rest');
    expect(rest.rt.totalProcessedRecords).toBe(EVENTS - at);
    for (const t of ['PERSON', 'AUCTION', 'BID']) expect([...rows(first.rt, t), ...rows(rest.rt, t)].sort()).toEqual(rows(whole.rt, t));
    await whole.rt.shutdown();
    await rest.rt.shutdown();
  });

  it('keeps nothing of the events it generated once their step is built: 200k more events, the same heap', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const c = compile(nexmarkTables({ events: 1 }));
    if (!c.ok) throw new Error(JSON.stringify(c.errors));
    const target = (name: string) => {
      const t = c.program.relation(name)!;
      return { endpoint: name, binding: new TableBinding(t, c.program.inputCodec(t.name)!) };
    };
    const source = new NexmarkSource({ person: target('person'), auction: target('auction'), bid: target('bid') }, readNexmarkOptions({ events: 250_000 }));
    const run = (events: number) => {
      let done = 0;
      while (done < events) {
        const step = new StepBuilder(source.targets);
        while (step.records < source.stepRecords) source.generate(step, source.stepRecords - step.records);
        step.parsed();
        source.commit();
        done += step.records;
      }
    };
    run(40_000);
    gc();
    const before = process.memoryUsage().heapUsed;
    run(200_000);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // 200k events kept would be about 40 MB (a bid's values alone are ~200 bytes); the channel cache is bounded
    expect(grown).toBeLessThan(8 * 1024 * 1024);
    expect(source.position()).toEqual({ events: 240_000 });
  });

  it('refuses a position that is not one of its own, naming the connector', async () => {
    await expect(runtime(sql, { 'BID.unnamed-0': { rows: 3 } })).rejects.toThrow(/Input connector 'BID.unnamed-0' cannot resume: not a nexmark position/);
  });
});

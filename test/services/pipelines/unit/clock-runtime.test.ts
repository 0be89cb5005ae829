/**
 * The clock in a pipeline's runtime and worker side (runtime.ts clockStep, worker/clock-ticker.ts) with a
 * real engine and a PipelineClock whose wall clock the test sets: a clock step moves NOW() and emits exactly
 * the change; a program without NOW() takes no clock step; a clock step the engine refuses is logged and
 * leaves NOW() where it was, the pipeline running; http-driven advances step only while running.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../../../src/engine/index.js';
import { PipelineClock } from '../../../../src/services/pipelines/shared/clock.js';
import { defaultEncoding } from '../../../../src/services/pipelines/shared/encoding.js';
import { PipelineRuntime } from '../../../../src/services/pipelines/worker/runtime.js';
import { ClockTicker } from '../../../../src/services/pipelines/worker/clock-ticker.js';

const root = mkdtempSync(join(tmpdir(), 'ops-clock-unit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const T0 = Date.parse('2024-01-01T12:00:00Z');

async function runtime(sql: string, clock: PipelineClock) {
  const c = compile(sql);
  if (!c.ok) throw new Error(JSON.stringify(c.errors));
  const emitted: string[] = [];
  const logs: string[] = [];
  let fatal: Error | null = null;
  const rt = new PipelineRuntime(c.program, {
    emit: (relation, _encoding, chunks) => emitted.push(`${relation}:${chunks.map((ch) => ch.data).join('')}`),
    endStreams: () => {},
    log: (level, message) => logs.push(`${level} ${message}`),
    onFatal: (err) => (fatal = err),
    connectorAccess: { root, fetchPolicy: 'any', maxBytes: 1 << 20 },
    clock: () => clock.now(),
  });
  await rt.init();
  for (const v of c.program.views) rt.subscribe(v.name, defaultEncoding('json'), 1);
  return { rt, emitted, logs, fatal: () => fatal };
}

describe('clock steps in the runtime', () => {
  it('move NOW() and emit exactly the change; a refused one is logged and NOW() stays', async () => {
    let wall = T0;
    const clock = new PipelineClock({ resolutionMs: 1000, httpDriven: false, offsetMs: null }, () => wall);
    // x overflows INT once NOW() passes 2038-01-19 (the epoch seconds times 1 then need more than 31 bits)
    const { rt, emitted, logs, fatal } = await runtime(
      `CREATE MATERIALIZED VIEW at AS SELECT NOW() AS n;
CREATE MATERIALIZED VIEW secs AS SELECT CAST(EXTRACT(EPOCH FROM NOW()) AS INT) + 1 AS x;`,
      clock,
    );
    rt.resume();
    expect(rt.clockStep()).toBe(true);
    expect(emitted.filter((e) => e.startsWith('AT:'))).toEqual(['AT:"json_data":[{"insert":{"N":"2024-01-01 12:00:00"}}]']);
    wall += 1500;
    emitted.length = 0;
    expect(rt.clockStep()).toBe(true);
    expect(emitted.filter((e) => e.startsWith('AT:'))).toEqual(['AT:"json_data":[{"delete":{"N":"2024-01-01 12:00:00"}},{"insert":{"N":"2024-01-01 12:00:01"}}]']);
    const steps = rt.steps;
    wall = Date.parse('2038-01-19T03:14:07Z'); // epoch seconds 2^31 - 1: + 1 overflows
    emitted.length = 0;
    expect(rt.clockStep()).toBe(false);
    expect(emitted).toEqual([]);
    expect(rt.steps).toBe(steps);
    expect(logs.some((l) => l.startsWith('ERROR The clock step was refused, NOW() did not move'))).toBe(true);
    expect(fatal()).toBeNull();
    expect(rt.circuit.contents('at')).toEqual([{ row: { N: '2024-01-01 12:00:01' }, weight: 1 }]);
    expect(rt.state).toBe('Running');
  });

  it('a program without NOW() takes no clock step', async () => {
    const clock = new PipelineClock({ resolutionMs: 1000, httpDriven: false, offsetMs: null }, () => T0);
    const { rt } = await runtime('CREATE TABLE t (x INT);\nCREATE VIEW v AS SELECT x FROM t;', clock);
    rt.resume();
    expect(rt.clockStep()).toBe(false);
    expect(rt.steps).toBe(0);
  });

  it('http-driven: the ticker steps at start and on each advance while running, holds advances while paused', async () => {
    const clock = new PipelineClock({ resolutionMs: 60_000, httpDriven: true, offsetMs: T0 }, () => T0 + 5);
    const { rt } = await runtime('CREATE MATERIALIZED VIEW at AS SELECT NOW() AS n;', clock);
    const ticker = new ClockTicker(clock, rt);
    rt.resume();
    ticker.start();
    expect(rt.circuit.contents('at')).toEqual([{ row: { N: '2024-01-01 12:00:00' }, weight: 1 }]);
    expect(ticker.advance(0)).toBe(T0);
    expect(rt.steps).toBe(1); // a read takes no step
    expect(ticker.advance(90_000)).toBe(T0 + 120_000);
    expect(rt.circuit.contents('at')).toEqual([{ row: { N: '2024-01-01 12:02:00' }, weight: 1 }]);
    rt.pause();
    ticker.stop();
    expect(ticker.advance(null)).toBe(T0 + 180_000);
    expect(rt.circuit.contents('at')).toEqual([{ row: { N: '2024-01-01 12:02:00' }, weight: 1 }]);
    rt.resume();
    ticker.start();
    expect(rt.circuit.contents('at')).toEqual([{ row: { N: '2024-01-01 12:03:00' }, weight: 1 }]);
    ticker.stop();
  });
});

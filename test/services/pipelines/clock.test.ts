/**
 * The pipeline clock on ops serve (as Feldera's `now` connector and POST /clock/advance): with
 * dev_tweaks.now_http_driven the clock moves only by /clock/advance, each advance one step whose changes
 * reach watch streams and snapshots exactly; the route's answers and errors; runtime_config's clock fields
 * checked at PUT; and, with the wall clock, a running pipeline's NOW() moves on its own (eventually: no
 * timing is asserted) and stops moving while paused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseClockAdvance } from '../../../src/services/pipelines/control/routes/clock.js';
import { createCompiled, ingest, pipelineBody, shutdown, startRunning, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
});
afterAll(async () => {
  await svc.close();
});

const SQL = `CREATE TABLE events (id INT NOT NULL, ts TIMESTAMP NOT NULL) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW last_hour AS SELECT id FROM events WHERE ts >= NOW() - INTERVAL 1 HOUR;
CREATE MATERIALIZED VIEW clock AS SELECT NOW() AS now;`;

const ANCHOR = '2024-01-01T12:00:00Z';
const httpDriven = (extra: Record<string, unknown> = {}) => ({ runtime_config: { workers: 1, dev_tweaks: { now_http_driven: true, now_offset: ANCHOR }, ...extra } });
const advance = (name: string, body: unknown) => svc.call('POST', `/v0/pipelines/${name}/clock/advance`, body);
const advanceRaw = (name: string, raw: string) => svc.call('POST', `/v0/pipelines/${name}/clock/advance`, undefined, { raw, headers: { 'content-type': 'application/json' } });
const rows = async (name: string, rel: string): Promise<any[]> => {
  const r = await svc.call('POST', `/v0/pipelines/${name}/egress/${rel}?format=json&mode=snapshot&query=table`);
  expect(r.status, r.text).toBe(200);
  return r.text
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .flatMap((l) => JSON.parse(l).json_data ?? [])
    .map((x: any) => x.insert ?? x);
};

describe('an http-driven clock', () => {
  it('starts at now_offset, moves only by /clock/advance, and each advance changes the views by exactly the difference', async () => {
    await createCompiled(svc, 'clk', SQL, httpDriven({ clock_resolution_usecs: 60_000_000 }));
    await startRunning(svc, 'clk');
    const watch = await WatchReader.open(svc, 'clk', 'last_hour');
    try {
      // the first step (at start) gave NOW() the anchor; a read moves nothing
      const read = await advance('clk', { delta_ms: 0 });
      expect(read.status, read.text).toBe(200);
      expect(read.json).toEqual({ now_ms: Date.parse(ANCHOR), now: '2024-01-01T12:00:00.000Z' });
      expect(await rows('clk', 'clock')).toEqual([{ NOW: '2024-01-01 12:00:00' }]);

      const ins = await ingest(svc, 'clk', 'events', 'format=json', '{"insert": {"id": 1, "ts": "2024-01-01 11:10:00"}}\n{"insert": {"id": 2, "ts": "2024-01-01 11:40:00"}}');
      expect(ins.status, ins.text).toBe(200);
      await watch.until((w) => w.items().length === 2, 'the two rows in the window');

      // 15 minutes: event 1 (11:10) leaves the window; the answer comes once that step is taken
      const a = await advance('clk', { delta_ms: 15 * 60_000 });
      expect(a.status, a.text).toBe(200);
      expect(a.json).toEqual({ now_ms: Date.parse('2024-01-01T12:15:00Z'), now: '2024-01-01T12:15:00.000Z' });
      await watch.until((w) => w.items().length === 3, 'the retraction of event 1');
      expect(watch.items()[2]).toEqual({ delete: { ID: 1 } });
      expect(await rows('clk', 'last_hour')).toEqual([{ ID: 2 }]);
      expect(await rows('clk', 'clock')).toEqual([{ NOW: '2024-01-01 12:15:00' }]);

      // null advances one resolution (a minute); a sub-resolution delta rounds up to a whole one
      expect((await advance('clk', { delta_ms: null })).json.now).toBe('2024-01-01T12:16:00.000Z');
      expect((await advance('clk', {})).json.now).toBe('2024-01-01T12:17:00.000Z');
      expect((await advance('clk', { delta_ms: 1 })).json.now).toBe('2024-01-01T12:18:00.000Z');
      expect(await rows('clk', 'clock')).toEqual([{ NOW: '2024-01-01 12:18:00' }]);
      expect(watch.items()).toHaveLength(3); // event 2 (11:40) is still within the hour

      // 25 more minutes: event 2 leaves
      await advance('clk', { delta_ms: 25 * 60_000 });
      await watch.until((w) => w.items().length === 4, 'the retraction of event 2');
      expect(watch.items()[3]).toEqual({ delete: { ID: 2 } });
      expect(await rows('clk', 'last_hour')).toEqual([]);
    } finally {
      watch.close();
    }
    // no ticking in between: NOW() is where the last advance put it
    expect(await rows('clk', 'clock')).toEqual([{ NOW: '2024-01-01 12:43:00' }]);
    await shutdown(svc, 'clk');
  });

  it('while paused, an advance is held for the next step; the route errors as Feldera', async () => {
    await createCompiled(svc, 'clk2', SQL, httpDriven());
    // not deployed
    const stopped = await advance('clk2', { delta_ms: 1000 });
    expect(stopped.status).toBe(503);
    expect(stopped.json.error_code).toBe('PipelineInteractionNotDeployed');
    expect((await advance('nope', { delta_ms: 1000 })).json.error_code).toBe('UnknownPipelineName');
    await startRunning(svc, 'clk2');

    // bad bodies: serde's reasons, nothing moved
    for (const [body, reason] of [
      [{ delta_ms: -5 }, 'invalid value: integer `-5`, expected u64'],
      [{ delta_ms: 1.5 }, 'invalid type: floating point `1.5`, expected u64'],
      [{ delta_ms: '10' }, 'invalid type: string "10", expected u64'],
      [[1], 'invalid type: sequence, expected struct ClockAdvanceRequest'],
    ] as const) {
      const r = await advance('clk2', body);
      expect(r.status, r.text).toBe(400);
      expect(r.json).toMatchObject({ error_code: 'InvalidRequestBody', message: `Json deserialize error: ${reason}` });
    }
    const empty = await advanceRaw('clk2', '');
    expect(empty.status).toBe(400);
    expect(empty.json.message).toBe('Json deserialize error: EOF while parsing a value at line 1 column 0');
    const past = await advance('clk2', { delta_ms: 9e15 });
    expect(past.status).toBe(400);
    expect(past.json.error_code).toBe('InvalidParam');
    expect((await advance('clk2', { delta_ms: 0 })).json.now).toBe('2024-01-01T12:00:00.000Z');

    // paused: the advance answers the new value, the views keep the old one until the pipeline runs again
    expect((await svc.call('POST', '/v0/pipelines/clk2/pause')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/clk2')).json.deployment_status === 'Paused', 'paused');
    expect((await advance('clk2', { delta_ms: 3_600_000 })).json.now).toBe('2024-01-01T13:00:00.000Z');
    expect(await rows('clk2', 'clock')).toEqual([{ NOW: '2024-01-01 12:00:00' }]);
    await startRunning(svc, 'clk2');
    await waitFor(async () => (await rows('clk2', 'clock'))[0]?.NOW === '2024-01-01 13:00:00', 'the held value after resume');
    await shutdown(svc, 'clk2');
  });

  it('a wall-clock pipeline and a program without NOW() refuse /clock/advance with InvalidParam', async () => {
    await createCompiled(svc, 'wall', SQL);
    await createCompiled(svc, 'nonow', 'CREATE TABLE t (x INT);\nCREATE VIEW v AS SELECT x FROM t;', httpDriven());
    await startRunning(svc, 'wall');
    await startRunning(svc, 'nonow');
    const wall = await advance('wall', { delta_ms: 1000 });
    expect(wall.status).toBe(400);
    expect(wall.json).toEqual({
      message: 'Invalid parameter: clock is wall-clock driven; set dev_tweaks.now_http_driven = true to enable POST /clock/advance.',
      error_code: 'InvalidParam',
      details: { error: 'clock is wall-clock driven; set dev_tweaks.now_http_driven = true to enable POST /clock/advance' },
    });
    const nonow = await advance('nonow', { delta_ms: null });
    expect(nonow.status).toBe(400);
    expect(nonow.json.message).toBe("Invalid parameter: this pipeline's program does not reference `NOW()`; the clock connector is not active and cannot be advanced.");
    await shutdown(svc, 'wall');
    await shutdown(svc, 'nonow');
  });
});

describe('ad-hoc queries', () => {
  it("read NOW() as the time of the query (as Feldera's ad-hoc engine), whatever the pipeline's clock says", async () => {
    await createCompiled(svc, 'adhocnow', SQL, httpDriven());
    await startRunning(svc, 'adhocnow');
    const before = Date.now();
    const r = await svc.call('GET', `/v0/pipelines/adhocnow/query?sql=${encodeURIComponent('SELECT NOW() AS n')}&format=json`);
    const after = Date.now();
    expect(r.status, r.text).toBe(200);
    const n = Date.parse(JSON.parse(r.text.trim()).N.replace(' ', 'T') + 'Z');
    expect(n).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(n).toBeLessThanOrEqual(after);
    await shutdown(svc, 'adhocnow');
  });
});

describe('the wall clock', () => {
  it('moves NOW() in a running pipeline on its own, and not while paused', async () => {
    // 50 ms resolution so the test need not wait long; only that it moves is asserted, never when
    await createCompiled(svc, 'ticking', SQL, { runtime_config: { workers: 1, clock_resolution_usecs: 50_000 } });
    await startRunning(svc, 'ticking');
    const first = await waitFor(async () => (await rows('ticking', 'clock'))[0]?.NOW as string | undefined, 'a first NOW()');
    const later = await waitFor(async () => {
      const now = (await rows('ticking', 'clock'))[0]?.NOW as string | undefined;
      return now !== undefined && now > first ? now : undefined;
    }, 'NOW() to move');
    expect(later > first).toBe(true);
    // paused: no clock steps (the step count stays)
    expect((await svc.call('POST', '/v0/pipelines/ticking/pause')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/ticking')).json.deployment_status === 'Paused', 'paused');
    const steps = async () => (await svc.call('GET', '/v0/pipelines/ticking/stats')).json.global_metrics.total_completed_steps as number;
    const atPause = await rows('ticking', 'clock');
    const stepsAtPause = await steps();
    await new Promise((r) => setTimeout(r, 300));
    expect(await rows('ticking', 'clock')).toEqual(atPause);
    expect(await steps()).toBe(stepsAtPause);
    await shutdown(svc, 'ticking');
  });
});

describe('runtime_config clock fields', () => {
  it('are checked when the pipeline is put', async () => {
    for (const [rc, what] of [
      [{ clock_resolution_usecs: -1 }, 'clock_resolution_usecs'],
      [{ clock_resolution_usecs: 'soon' }, 'clock_resolution_usecs'],
      [{ dev_tweaks: { now_http_driven: 'yes' } }, 'now_http_driven'],
      [{ dev_tweaks: { now_offset: 'yesterday' } }, 'now_offset'],
      [{ dev_tweaks: [] }, 'dev_tweaks'],
    ] as const) {
      const r = await svc.call('PUT', '/v0/pipelines/badclock', pipelineBody('badclock', 'CREATE TABLE t (x INT);', { runtime_config: rc }));
      expect(r.status, JSON.stringify(rc)).toBe(400);
      expect(r.json.error_code).toBe('InvalidRequestBody');
      expect(r.json.message).toContain(what);
    }
    expect((await svc.call('GET', '/v0/pipelines/badclock')).status).toBe(404);
  });

  it('parseClockAdvance reads serde-like: absent and null advance one resolution', () => {
    expect(parseClockAdvance({})).toBeNull();
    expect(parseClockAdvance({ delta_ms: null, other: 1 })).toBeNull();
    expect(parseClockAdvance({ delta_ms: 0 })).toBe(0);
    expect(() => parseClockAdvance({ delta_ms: true })).toThrow('invalid type: boolean `true`, expected u64');
    expect(() => parseClockAdvance('x')).toThrow('invalid type: string "x", expected struct ClockAdvanceRequest');
  });
});

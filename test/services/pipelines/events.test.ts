/**
 * Today's pipeline monitor events (GET /v0/pipelines/{name}/events[/{id|latest}]) and the checkpoint
 * endpoints' answers, on a real loopback server: the events a lifecycle records (order, fields, both
 * selectors), latest and by id, the errors, the retention cap, the heartbeat, a failure's error, a restart;
 * in both --pipeline-api modes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, startSvc, waitFor, type Svc } from './helpers.js';

const SQL = 'CREATE TABLE t (x INT);\nCREATE MATERIALIZED VIEW v AS SELECT x FROM t;';
const UUIDV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const STATUS_FIELDS = [
  'event_id',
  'recorded_at',
  'deployment_resources_status',
  'deployment_resources_desired_status',
  'deployment_runtime_status',
  'deployment_runtime_desired_status',
  'deployment_has_error',
  'program_status',
  'storage_status',
];
const ALL_FIELDS = [
  'event_id',
  'recorded_at',
  'deployment_resources_status',
  'deployment_resources_status_details',
  'deployment_resources_desired_status',
  'deployment_runtime_status',
  'deployment_runtime_status_details',
  'deployment_runtime_desired_status',
  'deployment_has_error',
  'deployment_error',
  'program_status',
  'storage_status',
  'storage_status_details',
];

type Tuple = [string, string, string | null, string | null, boolean, string];

/** An event as the Python SDK's test reduces it: resources, desired, runtime, desired, has error, program. */
const tuple = (e: any): Tuple => [
  e.deployment_resources_status,
  e.deployment_resources_desired_status,
  e.deployment_runtime_status,
  e.deployment_runtime_desired_status,
  e.deployment_has_error,
  e.program_status,
];

async function events(svc: Svc, name: string, query = ''): Promise<any[]> {
  const r = await svc.call('GET', `/v0/pipelines/${name}/events${query}`);
  expect(r.status, r.text).toBe(200);
  return r.json;
}

async function deployment(svc: Svc, name: string, status: string): Promise<void> {
  await waitFor(async () => (await svc.call('GET', `/v0/pipelines/${name}`)).json.deployment_status === status, `${name} ${status}`);
}

async function action(svc: Svc, name: string, what: string): Promise<void> {
  const r = await svc.call('POST', `/v0/pipelines/${name}/${what}`);
  expect(r.status, r.text).toBe(202);
}

/** create, compile, start, pause, stop: the events oldest first, as tuples. */
const LIFECYCLE: Tuple[] = [
  ['Stopped', 'Stopped', null, null, false, 'Pending'],
  ['Stopped', 'Stopped', null, null, false, 'CompilingSql'],
  ['Stopped', 'Stopped', null, null, false, 'CompilingRust'],
  ['Stopped', 'Stopped', null, null, false, 'Success'],
  // start: desired first, then each deployment status on the way up
  ['Stopped', 'Provisioned', null, 'Running', false, 'Success'],
  ['Provisioning', 'Provisioned', null, 'Running', false, 'Success'],
  ['Provisioned', 'Provisioned', 'Initializing', 'Running', false, 'Success'],
  ['Provisioned', 'Provisioned', 'Paused', 'Running', false, 'Success'],
  ['Provisioned', 'Provisioned', 'Running', 'Running', false, 'Success'],
  // pause
  ['Provisioned', 'Provisioned', 'Running', 'Paused', false, 'Success'],
  ['Provisioned', 'Provisioned', 'Paused', 'Paused', false, 'Success'],
  // stop
  ['Provisioned', 'Stopped', 'Paused', null, false, 'Success'],
  ['Stopping', 'Stopped', null, null, false, 'Success'],
  ['Stopped', 'Stopped', null, null, false, 'Success'],
];

async function lifecycle(svc: Svc, name: string, stop: 'shutdown' | 'stop?force=true'): Promise<void> {
  await createCompiled(svc, name, SQL);
  await action(svc, name, 'start');
  await deployment(svc, name, 'Running');
  await action(svc, name, 'pause');
  await deployment(svc, name, 'Paused');
  await action(svc, name, stop);
  await waitFor(async () => (await events(svc, name)).length >= LIFECYCLE.length, 'the last event');
}

describe.each([
  ['v0.24', 'shutdown'],
  ['current', 'stop?force=true'],
] as const)('monitor events with --pipeline-api %s', (api, stop) => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc({ pipelineApi: api });
    await lifecycle(svc, 'life', stop);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('records create, compile, start, pause and stop, newest first, with the status fields only by default', async () => {
    const list = await events(svc, 'life');
    expect(list.map(tuple).reverse()).toEqual(LIFECYCLE);
    expect(await events(svc, 'life', '?selector=status')).toEqual(list);
    for (const e of list) {
      expect(Object.keys(e)).toEqual(STATUS_FIELDS);
      expect(e.event_id).toMatch(UUIDV7);
      expect(e.storage_status).toBe('Cleared');
      expect(e.recorded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    }
    // recorded_at strictly decreases down the list; ids are unique
    for (let i = 1; i < list.length; i++) expect(list[i].recorded_at < list[i - 1].recorded_at).toBe(true);
    expect(new Set(list.map((e) => e.event_id)).size).toBe(list.length);
  });

  it('selector=all adds the details and the deployment error, same events in the same order', async () => {
    const status = await events(svc, 'life');
    const all = await events(svc, 'life', '?selector=all');
    expect(all.map((e) => e.event_id)).toEqual(status.map((e) => e.event_id));
    for (const [i, e] of all.entries()) {
      expect(Object.keys(e)).toEqual(ALL_FIELDS);
      expect(e).toMatchObject(status[i]);
      expect(e).toMatchObject({ deployment_error: null, deployment_resources_status_details: null, storage_status_details: null });
    }
  });

  it('latest is the first of the list and each event reads back by id, in both selectors', async () => {
    const status = await events(svc, 'life');
    const all = await events(svc, 'life', '?selector=all');
    const latest = await svc.call('GET', '/v0/pipelines/life/events/latest');
    expect(latest.status).toBe(200);
    expect(latest.headers.get('cache-control')).toBe('no-cache');
    expect(latest.json).toEqual(status[0]);
    expect((await svc.call('GET', '/v0/pipelines/life/events/latest?selector=all')).json).toEqual(all[0]);
    for (const [i, e] of status.entries()) {
      expect((await svc.call('GET', `/v0/pipelines/life/events/${e.event_id}`)).json).toEqual(e);
      expect((await svc.call('GET', `/v0/pipelines/life/events/${e.event_id}?selector=all`)).json).toEqual(all[i]);
    }
    // the id is a UUID, whatever its case or form
    const id = status[3].event_id;
    expect((await svc.call('GET', `/v0/pipelines/life/events/${id.toUpperCase()}`)).json).toEqual(status[3]);
    expect((await svc.call('GET', `/v0/pipelines/life/events/${id.replaceAll('-', '')}`)).json).toEqual(status[3]);
  });
});

describe('monitor events: errors, retention, heartbeat, failures, restarts', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc();
    await createCompiled(svc, 'p', SQL);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('answers an unknown pipeline, a bad id, an unknown event and a bad selector as Feldera', async () => {
    for (const path of ['/events', '/events/latest', '/events/0190a8e2-4ad1-7a3c-9d2b-1234567890ab']) {
      const r = await svc.call('GET', `/v0/pipelines/nope${path}`);
      expect(r.status, path).toBe(404);
      expect(r.json).toMatchObject({ error_code: 'UnknownPipelineName', details: { pipeline_name: 'nope' } });
    }
    const bad = await svc.call('GET', '/v0/pipelines/p/events/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error_code: 'InvalidUuidParam', details: { value: 'not-a-uuid' } });
    expect(bad.json.message).toMatch(/^Invalid UUID string 'not-a-uuid': invalid character/);
    const short = await svc.call('GET', '/v0/pipelines/p/events/1234');
    expect(short.json.message).toBe("Invalid UUID string '1234': invalid length: expected length 32 for simple format, found 4");
    // the id is checked before the pipeline is looked up
    expect((await svc.call('GET', '/v0/pipelines/nope/events/xyz')).json.error_code).toBe('InvalidUuidParam');

    const unknown = '0190a8e2-4ad1-7a3c-9d2b-1234567890ab';
    const r = await svc.call('GET', `/v0/pipelines/p/events/${unknown}`);
    expect(r.status).toBe(404);
    expect(r.json).toEqual({
      message: `Pipeline monitor event with identifier '${unknown}' does not exist -- it might have been deleted as only a limited number of events are retained`,
      error_code: 'UnknownPipelineMonitorEvent',
      details: { event_id: unknown },
    });

    for (const path of ['/v0/pipelines/p/events', '/v0/pipelines/p/events/latest', '/v0/pipelines/nope/events']) {
      const s = await svc.call('GET', `${path}?selector=everything`);
      expect(s.status, path).toBe(400);
      expect(s.json.message).toBe('Query deserialize error: unknown variant `everything`, expected `all` or `status`');
      expect((await svc.call('GET', `${path}?selector=all&selector=status`)).json.message).toBe('Query deserialize error: duplicate field `selector`');
    }
  });

  it("a failure's deployment error is an event (its error with selector=all); acknowledging it is another", async () => {
    const f = await startSvc({ pipelinesWorkerFault: 'throw' });
    try {
      await createCompiled(f, 'boom', SQL);
      await action(f, 'boom', 'start');
      await deployment(f, 'boom', 'Running');
      await ingest(f, 'boom', 'T', 'format=json', '{"insert": {"x": 1}}');
      await deployment(f, 'boom', 'Failed');
      const failed = (await f.call('GET', '/v0/pipelines/boom/events/latest?selector=all')).json;
      const pipeline = (await f.call('GET', '/v0/pipelines/boom')).json;
      expect(failed).toMatchObject({ deployment_resources_status: 'Stopped', deployment_runtime_status: null, deployment_has_error: true });
      expect(failed.deployment_error).toEqual(pipeline.deployment_error);
      expect(Object.keys((await f.call('GET', '/v0/pipelines/boom/events/latest')).json)).toEqual(STATUS_FIELDS);
      await action(f, 'boom', 'shutdown');
      await deployment(f, 'boom', 'Shutdown');
      const list = await events(f, 'boom', '?selector=all');
      expect(list[0]).toMatchObject({ deployment_resources_status: 'Stopped', deployment_has_error: false, deployment_error: null });
      // the way back: Stopping (the error still set), then Stopped without it
      expect(list.slice(0, 3).map(tuple)).toEqual([
        ['Stopped', 'Stopped', null, null, false, 'Success'],
        ['Stopping', 'Stopped', null, null, true, 'Success'],
        ['Stopped', 'Stopped', null, null, true, 'Success'],
      ]);
      expect(list[2].event_id).toBe(failed.event_id);
    } finally {
      await f.close();
    }
  });

  it('keeps the newest events up to the retention cap; a dropped one is UnknownPipelineMonitorEvent', async () => {
    const small = await startSvc({ pipelinesEventsRetention: 3 });
    try {
      await createCompiled(small, 'cap', SQL);
      const compiled = await events(small, 'cap');
      expect(compiled.map(tuple).map((t) => t[5])).toEqual(['Success', 'CompilingRust', 'CompilingSql']);
      await action(small, 'cap', 'start');
      await deployment(small, 'cap', 'Running');
      const running = await waitFor(async () => {
        const list = await events(small, 'cap');
        return list[0].deployment_runtime_status === 'Running' ? list : undefined;
      }, 'the Running event');
      expect(running.map(tuple)).toEqual([
        ['Provisioned', 'Provisioned', 'Running', 'Running', false, 'Success'],
        ['Provisioned', 'Provisioned', 'Paused', 'Running', false, 'Success'],
        ['Provisioned', 'Provisioned', 'Initializing', 'Running', false, 'Success'],
      ]);
      for (const e of compiled) {
        const r = await small.call('GET', `/v0/pipelines/cap/events/${e.event_id}`);
        expect(r.status).toBe(404);
        expect(r.json.error_code).toBe('UnknownPipelineMonitorEvent');
      }
    } finally {
      await small.close();
    }
  });

  it("repeats a deployed pipeline's last event at each heartbeat, not a stopped one's", async () => {
    const beat = await startSvc({ pipelinesEventsHeartbeatMs: 50 });
    try {
      await createCompiled(beat, 'hb', SQL);
      await createCompiled(beat, 'idle', SQL);
      await action(beat, 'hb', 'start');
      await deployment(beat, 'hb', 'Running');
      const list = await waitFor(async () => {
        const l = await events(beat, 'hb');
        return l.length >= 3 && l.slice(0, 3).every((e) => e.deployment_runtime_status === 'Running') ? l : undefined;
      }, 'three Running events');
      const repeats = list.filter((e) => e.deployment_runtime_status === 'Running');
      expect(new Set(repeats.map((e) => e.event_id)).size).toBe(repeats.length);
      for (const e of repeats) expect(tuple(e)).toEqual(tuple(repeats[0]));
      // the stopped pipeline keeps its four (create and compile)
      expect(await events(beat, 'idle')).toHaveLength(4);
    } finally {
      await beat.close();
    }
  });

  it('a restarted server starts each pipeline with one event of its status; a deleted pipeline has none', async () => {
    const dataDir = svc.sa.dataDir;
    const before = await events(svc, 'p');
    expect(before.length).toBe(4);
    await svc.close();
    svc = await startSvc({}, { dataDir });
    const after = await events(svc, 'p');
    expect(after.map(tuple)).toEqual([['Stopped', 'Stopped', null, null, false, 'Success']]);
    expect(after[0].event_id).not.toBe(before[0].event_id);
    expect((await svc.call('DELETE', '/v0/pipelines/p')).status).toBe(200);
    await createCompiled(svc, 'p', SQL);
    expect((await events(svc, 'p')).map((e) => tuple(e)[5])).toEqual(['Success', 'CompilingRust', 'CompilingSql', 'Pending']);
  });
});

describe('checkpoints (ops serve keeps no storage)', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc();
    await createCompiled(svc, 'c', SQL);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('POST /checkpoint needs a deployed pipeline (503 otherwise, 404 unknown); /checkpoint/sync answers 501 EnterpriseFeature, saying why', async () => {
    const stopped = await svc.call('POST', '/v0/pipelines/c/checkpoint');
    expect(stopped.status).toBe(503);
    expect(stopped.json.error_code).toBe('PipelineInteractionNotDeployed');
    expect((await svc.call('POST', '/v0/pipelines/nope/checkpoint')).status).toBe(404);
    for (const name of ['c', 'nope']) {
      const r = await svc.call('POST', `/v0/pipelines/${name}/checkpoint/sync`);
      expect(r.status).toBe(501);
      expect(r.json).toMatchObject({ error_code: 'EnterpriseFeature', details: { feature: 'checkpoint sync' } });
      expect(r.json.message).toMatch(/^Cannot use enterprise-only feature \(checkpoint sync\)/);
      expect(r.json.message).toContain('syncs them to no object store');
    }
  });

  it('GET /checkpoints, /checkpoint_status and /checkpoint/sync_status answer an idle pipeline without storage', async () => {
    for (const path of ['checkpoints', 'checkpoint_status', 'checkpoint/sync_status']) {
      const r = await svc.call('GET', `/v0/pipelines/c/${path}`);
      expect(r.status, path).toBe(503);
      expect(r.json.error_code).toBe('PipelineInteractionNotDeployed');
      expect((await svc.call('GET', `/v0/pipelines/nope/${path}`)).status).toBe(404);
    }
    await action(svc, 'c', 'start');
    await deployment(svc, 'c', 'Running');
    expect((await svc.call('GET', '/v0/pipelines/c/checkpoints')).json).toEqual([]);
    expect((await svc.call('GET', '/v0/pipelines/c/checkpoint_status')).json).toEqual({ success: null, failure: null });
    expect((await svc.call('GET', '/v0/pipelines/c/checkpoint/sync_status')).json).toEqual({ success: null, failure: null, periodic: null });

    const incarnation = (await svc.call('GET', '/v0/pipelines/c/stats')).json.global_metrics.incarnation_uuid;
    expect((await svc.call('GET', `/v0/pipelines/c/checkpoint_status?incarnation_uuid=${incarnation}`)).status).toBe(200);
    const other = '0190a8e2-4ad1-7a3c-9d2b-1234567890ab';
    for (const path of ['checkpoint_status', 'checkpoint/sync_status']) {
      const r = await svc.call('GET', `/v0/pipelines/c/${path}?incarnation_uuid=${other}`);
      expect(r.status).toBe(400);
      expect(r.json).toEqual({
        message: `Incarnation UUID mismatch (${other} in request, expected ${incarnation})`,
        error_code: 'IncarnationUuidMismatch',
        details: { requested: other, expected: incarnation },
      });
      const bad = await svc.call('GET', `/v0/pipelines/c/${path}?incarnation_uuid=zzz`);
      expect(bad.status).toBe(400);
      expect(bad.json.message).toMatch(/^Query deserialize error: UUID parsing failed: invalid character/);
    }
  });
});

/**
 * The monitor event recorder (monitor-events.ts) on its own: a repeat is not recorded (unless asked), the
 * cap drops the oldest, recorded_at strictly increases even within a millisecond, the selectors' fields;
 * and the route helpers parseUuid and enumParam (routes/util.ts) in the uuid crate's and serde's words.
 */
import { describe, expect, it } from 'vitest';
import { Entry } from '../../../../src/services/pipelines/control/entry.js';
import { defaultProgramConfig, defaultRuntimeConfig, nowIso, uuidv7, type PipelineRecord } from '../../../../src/services/pipelines/control/model.js';
import { MonitorEvents, selectFields } from '../../../../src/services/pipelines/control/monitor-events.js';
import { enumParam } from '../../../../src/services/pipelines/control/routes/query-fields.js';
import { parseUuid } from '../../../../src/services/pipelines/control/routes/uuid.js';
import { FelderaError } from '../../../../src/services/pipelines/shared/errors.js';

function entry(): Entry {
  const rec: PipelineRecord = {
    id: uuidv7(),
    name: 'p',
    description: '',
    version: 1,
    created_at: nowIso(),
    runtime_config: defaultRuntimeConfig(),
    program_code: '',
    program_config: defaultProgramConfig(),
    program_version: 1,
    program_status: 'Pending',
    program_status_since: nowIso(),
    program_info: null,
    program_binary_url: null,
  };
  return new Entry(rec);
}

describe('MonitorEvents', () => {
  it('records a change, not a repeat (unless asked), newest first, and keeps the newest `retention`', () => {
    const events = new MonitorEvents(3);
    const e = entry();
    expect(events.latest(e.rec.id)).toBeUndefined();
    expect(events.record(e.rec, e.dep)).toBe(true);
    expect(events.record(e.rec, e.dep)).toBe(false);
    expect(events.record(e.rec, e.dep, { repeat: true })).toBe(true);
    for (const s of ['CompilingSql', 'CompilingRust', 'Success'] as const) {
      e.rec.program_status = s;
      expect(events.record(e.rec, e.dep)).toBe(true);
    }
    const list = events.list(e.rec.id);
    expect(list.map((ev) => ev.program_status)).toEqual(['Success', 'CompilingRust', 'CompilingSql']);
    expect(events.latest(e.rec.id)).toEqual(list[0]);
    expect(events.find(e.rec.id, list[2]!.event_id)).toEqual(list[2]);
    // many in the same millisecond: still strictly increasing
    for (let i = 0; i < 50; i++) events.record(e.rec, e.dep, { repeat: true });
    const times = events.list(e.rec.id).map((ev) => ev.recorded_at);
    expect(times[0]! > times[1]! && times[1]! > times[2]!).toBe(true);
    events.drop(e.rec.id);
    expect(events.list(e.rec.id)).toEqual([]);
  });

  it('an error is a change; selector status leaves out the details and the error', () => {
    const events = new MonitorEvents();
    const e = entry();
    events.record(e.rec, e.dep);
    e.dep.deployment_error = { message: 'boom', error_code: 'RuntimeError.WorkerPanic', details: null };
    expect(events.record(e.rec, e.dep)).toBe(true);
    const ev = events.latest(e.rec.id)!;
    expect(ev).toMatchObject({ deployment_has_error: true, deployment_error: e.dep.deployment_error });
    expect(selectFields(ev, 'all')).toEqual(ev);
    const status = selectFields(ev, 'status');
    for (const k of ['deployment_error', 'deployment_resources_status_details', 'deployment_runtime_status_details', 'storage_status_details']) expect(status).not.toHaveProperty(k);
    expect(status).toMatchObject({ deployment_has_error: true, deployment_resources_status: 'Stopped' });
  });
});

describe('parseUuid', () => {
  const id = '0190a8e2-4ad1-7a3c-9d2b-1234567890ab';
  it.each([id, id.toUpperCase(), id.replaceAll('-', ''), `{${id}}`, `urn:uuid:${id}`])('takes %s', (text) => {
    expect(parseUuid(text)).toEqual({ uuid: id });
  });
  it.each([
    ['latest', 'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `l` at 1'],
    ['0190a8e2-4ad1-7a3c-9d2b', 'invalid group count: expected 5, found 4'],
    ['0190a8e2-4ad1-7a3c-9d2b-1234567890a', 'invalid group length in group 4: expected 12, found 11'],
    ['0190a8e24ad17a3c', 'invalid length: expected length 32 for simple format, found 16'],
  ])('refuses %s', (text, error) => {
    expect(parseUuid(text)).toEqual({ error });
  });
});

describe('enumParam', () => {
  const values = ['all', 'status'] as const;
  it('defaults, accepts a value, refuses others and duplicates as serde', () => {
    expect(enumParam({}, 'selector', values, 'status')).toBe('status');
    expect(enumParam({ selector: 'all' }, 'selector', values, 'status')).toBe('all');
    const refused = (q: Record<string, string | string[]>) => {
      try {
        enumParam(q, 'selector', values, 'status');
      } catch (err) {
        expect(err).toBeInstanceOf(FelderaError);
        return (err as FelderaError).body();
      }
      throw new Error('accepted');
    };
    expect(refused({ selector: 'ALL' })).toEqual({
      message: 'Query deserialize error: unknown variant `ALL`, expected `all` or `status`',
      error_code: 'InvalidQueryParameter',
      details: { param: 'selector', value: 'ALL' },
    });
    expect(refused({ selector: ['all', 'all'] }).message).toBe('Query deserialize error: duplicate field `selector`');
  });
});

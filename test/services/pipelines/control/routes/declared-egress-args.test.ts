/**
 * The egress route's connector parameters (format, backpressure, send_snapshot, the encoders' fields), its
 * `?quantiles` and the start route's `?initial`, declared through the kit: the answers to good and bad inputs to
 * the byte (recorded before they moved from hand-written checks), the first bad parameter alone, in the manager's
 * order (a JSON body's configuration before the query's format; the encoder before the quantiles).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, shutdown, startRunning, startSvc, waitFor, type Svc } from '../../helpers.js';

const SQL = "CREATE TABLE t (x INT) WITH ('materialized' = 'true'); CREATE MATERIALIZED VIEW v AS SELECT x FROM t; CREATE VIEW nv AS SELECT x FROM t;";

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
  await createCompiled(svc, 'p', SQL);
  await createCompiled(svc, 'q', SQL);
  await startRunning(svc, 'p');
  expect((await ingest(svc, 'p', 't', 'format=json&update_format=raw', '{"x": 1}\n{"x": 2}\n{"x": 3}')).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await svc.close();
});

const masked = (text: string) => text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');

/** A watch stream's status and content type, then the stream is left. */
async function opened(path: string, body?: string): Promise<{ status: number; type: string | null; text?: string }> {
  const ac = new AbortController();
  const r = await fetch(svc.base + path, { method: 'POST', signal: ac.signal, ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }) });
  if (r.status !== 200) return { status: r.status, type: r.headers.get('content-type'), text: masked(await r.text()) };
  ac.abort();
  return { status: r.status, type: r.headers.get('content-type') };
}

describe('egress connector parameters', () => {
  const refused: [string, string?][] = [
    ['mode=watch&format=xml'],
    ['format=xml&backpressure=maybe'],
    ['format=json&backpressure=maybe'],
    ['backpressure=maybe&send_snapshot=maybe'],
    ['backpressure=true&send_snapshot=maybe'],
    ['backpressure=&send_snapshot=2'],
    ['format=json&format=xml'],
    ['format=xml&format=json&send_snapshot=true'],
    ['send_snapshot=true'],
    ['format=json&update_format=bogus&json_flavor=bogus'],
    ['format=json&json_flavor=bogus&buffer_size_records=x'],
    ['format=json&update_format=snowflake&update_format=insert_delete'],
    ['format=json&buffer_size_records=1&buffer_size_records=2&update_format=x'],
    ['format=json&array=maybe'],
    ['format=json&array=1&array=0'],
    ['format=json&key_fields=x'],
    ['format=json&update_format=weighted'],
    ['format=csv&delimiter=ab'],
    ['format=csv&delimiter=%3B&delimiter=,'],
    ['format=csv&update_format=bogus&buffer_size_records=-1'],
    ['format=xml', '{"format": {"name": "json", "config": {"array": true}}}'],
    ['backpressure=maybe', '{"format": {"name": "json", "config": {"array": true}}}'],
    ['format=xml', 'not json'],
    ['send_snapshot=maybe', '{"format": {"name": "csv"}}'],
    ['send_snapshot=maybe&update_format=bogus', '[1]'],
  ];
  for (const [query, body] of refused) {
    it(`watch ?${query}${body === undefined ? '' : ` with ${body}`}`, async () => {
      expect(await opened(`/v0/pipelines/p/egress/v?${query}`, body)).toMatchSnapshot();
    });
  }

  const accepted: [string, string?][] = [
    [''],
    ['format=json&backpressure=1&send_snapshot=0'],
    ['format=csv&backpressure=false&send_snapshot=true&delimiter=%3B&buffer_size_records=0'],
    ['format=json&update_format=snowflake&buffer_size_records=5'],
    ['format=json&json_flavor=default&array=false'],
    ['format=csv&update_format=bogus&array=maybe'],
    ['backpressure=&send_snapshot='],
    ['format=json&backpressure=true&backpressure=false'],
    ['quantiles=many&send_snapshot=false'],
    ['', 'null'],
    ['mode=watch', '{"format": {"name": "json", "config": {"array": true}}, "send_snapshot": true}'],
  ];
  for (const [query, body] of accepted) {
    it(`watch ?${query}${body === undefined ? '' : ` with ${body}`} streams`, async () => {
      expect(await opened(`/v0/pipelines/p/egress/v?${query}`, body)).toMatchSnapshot();
    });
  }

  const snapshots = [
    'mode=snapshot&format=xml&query=quantiles&quantiles=x',
    'mode=snapshot&send_snapshot=maybe',
    'mode=snapshot&send_snapshot=maybe&backpressure=maybe',
    'mode=snapshot&format=json&update_format=snowflake&quantiles=0',
    'mode=snapshot&format=json&update_format=bogus&query=quantiles&quantiles=0',
    'mode=snapshot&format=csv&delimiter=%3B',
    'mode=snapshot&format=json&buffer_size_records=3',
    'mode=snapshot&format=json&buffer_size_records=1000',
    'mode=snapshot&query=quantiles&quantiles=0',
    'mode=snapshot&query=quantiles&quantiles=-1',
    'mode=snapshot&query=quantiles&quantiles=1.5',
    'mode=snapshot&query=quantiles&quantiles=1001',
    'mode=snapshot&query=quantiles&quantiles=2&quantiles=9999',
    'mode=snapshot&query=quantiles&quantiles=',
    'mode=snapshot&query=quantiles&quantiles=1',
    'mode=snapshot&query=quantiles&quantiles=1000&format=csv',
    'mode=snapshot&query=table&quantiles=0',
    'mode=snapshot&format=json',
    'mode=snapshot&format=csv&backpressure=true',
  ];
  for (const query of snapshots) {
    it(`snapshot ?${query}`, async () => {
      const r = await svc.call('POST', `/v0/pipelines/p/egress/v?${query}`, undefined, { raw: '' });
      expect({ status: r.status, type: r.headers.get('content-type'), body: masked(r.text) }).toMatchSnapshot();
    });
  }
});

describe('the start route ?initial', () => {
  const cases: [string, string][] = [
    ['initial=paused', 'Paused'],
    ['initial=running', 'Running'],
    ['initial=standby', 'Running'],
    ['initial=bogus', 'Running'],
    ['initial=paused&initial=paused', 'Running'],
    ['initial=', 'Running'],
  ];
  for (const [query, state] of cases) {
    it(`?${query}`, { timeout: 60_000 }, async () => {
      const r = await svc.call('POST', `/v0/pipelines/q/start?${query}`);
      expect({ status: r.status, body: r.text }).toMatchSnapshot();
      await waitFor(async () => (await svc.call('GET', '/v0/pipelines/q')).json.deployment_status === state, `q ${state}`);
      await shutdown(svc, 'q');
    });
  }
});

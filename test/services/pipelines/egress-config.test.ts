/**
 * ops serve's egress reads its connector configuration as today's Feldera (in-process server, real HTTP, the
 * pipeline's real worker): the query string's encoder fields and a JSON body's whole connector config are
 * checked, each refused case with Feldera's status and error_code and a message naming the parameter; every
 * accepted form (query, body json, body csv, body with backpressure / send_snapshot, and v0.24's SDK request:
 * query parameters with the body `null`, or an empty body) streams the same changes
 * as the plain stream; buffer_size_records sizes the chunks, delimiter the CSV; update_format=snowflake
 * writes Snowflake's records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { createCompiled, ingest, startRunning, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

const SQL = `CREATE TABLE t (id BIGINT NOT NULL, s VARCHAR) WITH ('materialized' = 'true');
CREATE TABLE u (id BIGINT NOT NULL, ts TIMESTAMP, v VARIANT) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW mv AS SELECT id, s FROM t;
CREATE VIEW nv AS SELECT id, s FROM t;
CREATE MATERIALIZED VIEW tv AS SELECT id, ts, v FROM u;`;

type Frame = { sequence_number: number; snapshot?: boolean; json_data?: any[]; text_data?: string };
const dataFrames = (r: WatchReader) => (r.chunks as Frame[]).filter((f) => f.json_data !== undefined || f.text_data !== undefined);
const items = (r: WatchReader) => dataFrames(r).flatMap((f) => f.json_data ?? []);
const csvText = (r: WatchReader) =>
  dataFrames(r)
    .map((f) => f.text_data ?? '')
    .join('');

describe('egress connector configuration', { timeout: 120_000 }, () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc();
    await createCompiled(svc, 'e', SQL);
    await startRunning(svc, 'e');
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
  });

  const egress = (view: string, query: string, body?: string) =>
    svc.call('POST', `/v0/pipelines/e/egress/${view}${query ? `?${query}` : ''}`, undefined, body === undefined ? {} : { raw: body, headers: { 'content-type': 'application/json' } });

  async function refused(view: string, query: string, body: unknown, code: string, mentions: string[]): Promise<void> {
    const r = await egress(view, query, body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
    const what = `${query} ${JSON.stringify(body)}: ${r.text}`;
    expect(r.status, what).toBe(400);
    expect(r.json.error_code, what).toBe(code);
    for (const m of mentions) expect(r.json.message, what).toContain(m);
  }

  it('query parameters Feldera cannot read: 400 with its error codes, naming the parameter', async () => {
    const parse = 'ConfigError.EncoderConfigParseError';
    await refused('mv', 'format=json&update_format=bogus', undefined, parse, ["query parameter 'update_format'", "'bogus'", "'insert_delete'"]);
    await refused('mv', 'format=json&buffer_size_records=abc', undefined, parse, ["query parameter 'buffer_size_records'", "'abc'"]);
    await refused('mv', 'format=json&buffer_size_records=-1', undefined, parse, ["'buffer_size_records'"]);
    await refused('mv', 'format=csv&buffer_size_records=1.5', undefined, parse, ["'buffer_size_records'"]);
    await refused('mv', 'format=json&array=maybe', undefined, parse, ["query parameter 'array'"]);
    await refused('mv', 'format=json&json_flavor=bogus', undefined, parse, ["query parameter 'json_flavor'"]);
    // a query string cannot carry key_fields' list (Feldera's serde_urlencoded fails on it)
    await refused('mv', 'format=json&update_format=debezium&key_fields=id', undefined, parse, ["query parameter 'key_fields'"]);
    await refused('mv', 'format=json&update_format=snowflake&update_format=insert_delete', undefined, parse, ["query parameter 'update_format' is given more than once"]);
    await refused('mv', 'format=csv&delimiter=ab', undefined, parse, ["query parameter 'delimiter'"]);
    await refused('mv', 'format=csv&delimiter=%C3%A9', undefined, parse, ["query parameter 'delimiter'"]);
    const r = await egress('mv', 'format=json&update_format=bogus');
    expect(r.json.details.config_error).toMatchObject({ endpoint_name: expect.stringMatching(/^api-watch-MV-/), config: 'format=json&update_format=bogus' });

    const unsupported = 'ConfigError.OutputFormatNotSupported';
    await refused('mv', 'format=json&update_format=raw', undefined, unsupported, ['Raw update format is not supported for output JSON streams', "'raw'"]);
    await refused('mv', 'format=json&update_format=weighted', undefined, unsupported, ['Weighted update format is not supported for output JSON streams']);
    // Feldera's HTTP transport cannot carry debezium/redis key-value records: refused up front
    await refused('mv', 'format=json&update_format=debezium', undefined, unsupported, ["'debezium'", 'HTTP output transport']);
    await refused('mv', 'format=json&update_format=redis', undefined, unsupported, ["'redis'"]);
    await refused('mv', 'format=json&json_flavor=pandas', undefined, unsupported, ["query parameter 'json_flavor'", "'pandas'"]);
    // snapshot mode answers one object in the default encoding
    await refused('mv', 'mode=snapshot&query=quantiles&format=csv&delimiter=;', undefined, unsupported, ["'delimiter'", 'mode=watch']);
    await refused('mv', 'mode=snapshot&query=quantiles&format=json&update_format=bogus', undefined, parse, ["'update_format'"]);

    const bad = await egress('mv', 'format=xml');
    expect([bad.status, bad.json.error_code]).toEqual([400, 'UnknownOutputFormat']);
  });

  it('JSON bodies Feldera refuses: 400 with its error codes, naming the field', async () => {
    const json = { format: { name: 'json', config: { array: true } } };
    await refused('mv', '', '{"format": ', 'InvalidParam', ['the body is not JSON']);
    await refused('mv', 'format=json', json, 'InvalidParam', ["Can't mix configuration between JSON body and query parameters", "'format'"]);
    await refused('mv', 'backpressure=true', json, 'InvalidParam', ["Can't mix configuration", "'backpressure'"]);
    await refused('mv', '', [json], 'InvalidParam', ['must be a JSON object']);
    await refused('mv', '', { ...json, transport: { name: 'kafka_output', config: {} } }, 'InvalidParam', ['Transport configuration must be `http_output`', 'kafka_output']);
    await refused('mv', '', { ...json, transport: { name: 'http_output', config: { backpressure: 'yes' } } }, 'InvalidParam', ["'transport.config.backpressure'"]);
    await refused('mv', '', { format: { name: 'avro' } }, 'InvalidParam', ['Format must be configured as `csv` or `json`', '"avro"']);
    await refused('mv', '', { transport: { name: 'http_output' } }, 'InvalidParam', ['Format must be configured as `csv` or `json`', "no field 'format'"]);
    await refused('mv', '', { format: { name: 'json' } }, 'InvalidParam', ['Invalid JSON format configuration', '"array": true']);
    await refused('mv', '', { format: { name: 'json', config: {} } }, 'InvalidParam', ['JSON format configuration must set `"array": true`']);
    await refused('mv', '', { format: { name: 'json', config: { array: false } } }, 'InvalidParam', ['must set `"array": true`']);
    await refused('mv', '', { format: { name: 'json', config: { array: true, update_format: 'bogus' } } }, 'InvalidParam', [
      'Invalid JSON format configuration',
      "field 'format.config.update_format'",
    ]);
    await refused('mv', '', { ...json, send_snapshot: 'yes' }, 'InvalidParam', ["field 'send_snapshot'"]);

    await refused('mv', '', { format: { name: 'json', config: { array: true, update_format: 'raw' } } }, 'ConfigError.OutputFormatNotSupported', ['Raw update format']);
    const keyed = (update_format: string, key_fields: unknown) => ({ format: { name: 'json', config: { array: true, update_format, key_fields } } });
    await refused('mv', '', keyed('insert_delete', ['id']), 'ConfigError.InvalidEncoderConfig', ["'key_fields' property is only supported for the 'debezium' or 'redis' update format"]);
    await refused('mv', '', keyed('debezium', []), 'ConfigError.InvalidEncoderConfig', ["'key_fields' is empty"]);
    await refused('mv', '', keyed('debezium', ['nope']), 'ConfigError.InvalidEncoderConfig', ["'key_fields' references unknown field 'nope'"]);
    await refused('mv', '', keyed('debezium', ['ID']), 'ConfigError.OutputFormatNotSupported', ['HTTP output transport']);
    await refused('mv', '', { format: { name: 'csv', config: { delimiter: 'ab' } } }, 'ConfigError.EncoderConfigParseError', ["field 'format.config.delimiter'"]);
    await refused('mv', '', { format: { name: 'csv', config: { buffer_size_records: -3 } } }, 'ConfigError.EncoderConfigParseError', ["field 'format.config.buffer_size_records'"]);
    await refused('mv', '', { ...json, soft_delete: true }, 'ConfigError.InvalidSoftDeleteConfig', ["'soft_delete'"]);
    await refused('mv', '', { ...json, index: 'mv_idx' }, 'ConfigError.UnknownIndex', ["'mv_idx'"]);
    await refused('nv', '', { ...json, send_snapshot: true }, 'ConfigError.InvalidTransportConfig', ["'send_snapshot: true' requires a materialized output view"]);
    // a body sent without a content-type is read the same (curl -d sends one, some clients do not)
    const noType = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${svc.base}/v0/pipelines/e/egress/mv?mode=watch`, { method: 'POST' }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end('{"format": {"name": "json"}}');
    });
    expect(noType.status, noType.body).toBe(400);
    expect(JSON.parse(noType.body).message).toContain('"array": true');

    // a neighborhood body on a watch is not read as a connector config: the watch's 405 as before
    const nb = await egress('mv', 'mode=watch&query=neighborhood', '{"anchor": null, "before": 1, "after": 1}');
    expect([nb.status, nb.json.error_code]).toEqual([405, 'NeighborhoodStreamingNotSupported']);
    // with a body, the query's send_snapshot is not read (Feldera reads the body's): no snapshot check on nv
    const ignored = await WatchReader.open(svc, 'e', 'nv', 'send_snapshot=true', json);
    expect(ignored.status, ignored.raw).toBe(200);
    ignored.close();
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/e/stats')).json.outputs.length === 0, 'the stream to close');

    // nothing was left behind: no stream is open, and the pipeline still runs
    const stats = await svc.call('GET', '/v0/pipelines/e/stats');
    expect(stats.json.outputs).toEqual([]);
    expect((await svc.call('GET', '/v0/pipelines/e')).json.deployment_status).toBe('Running');
  });

  it('every accepted form streams the same changes as the plain stream', async () => {
    expect((await ingest(svc, 'e', 't', 'format=json', '{"insert":{"id":1,"s":"before"}}')).status).toBe(200);
    const plain = await WatchReader.open(svc, 'e', 'mv', 'format=json');
    const forms = {
      query: await WatchReader.open(svc, 'e', 'mv', 'format=json&array=false&update_format=insert_delete&json_flavor=default&buffer_size_records=10000&backpressure=true'),
      body: await WatchReader.open(svc, 'e', 'mv', '', { format: { name: 'json', config: { array: true } } }),
      // Feldera v0.24's Python SDK (listen_to_pipeline): its HTTP helper sends None as the body `null`
      sdk024: await WatchReader.open(svc, 'e', 'mv', 'format=json&backpressure=true&mode=watch', null),
      sdk024Spaced: await WatchReader.open(svc, 'e', 'mv', 'format=json&backpressure=true&mode=watch', ' null\n'),
      emptyBody: await WatchReader.open(svc, 'e', 'mv', 'format=json&backpressure=true&mode=watch', ''),
      bodyTransport: await WatchReader.open(svc, 'e', 'mv', 'mode=watch', {
        transport: { name: 'http_output', config: { backpressure: true } },
        format: { name: 'json', config: { array: true, update_format: 'insert_delete', buffer_size_records: 10000 } },
        max_queued_records: 1000,
      }),
    };
    const snap = await WatchReader.open(svc, 'e', 'mv', '', { format: { name: 'json', config: { array: true } }, send_snapshot: true });
    const oneByOne = await WatchReader.open(svc, 'e', 'mv', 'format=json&buffer_size_records=1');
    const zero = await WatchReader.open(svc, 'e', 'mv', '', { format: { name: 'json', config: { array: true, buffer_size_records: 0 } } });
    const csvPlain = await WatchReader.open(svc, 'e', 'mv', 'format=csv');
    const csvBody = await WatchReader.open(svc, 'e', 'mv', '', { format: { name: 'csv' } });
    const csvSemi = await WatchReader.open(svc, 'e', 'mv', 'format=csv&delimiter=;&buffer_size_records=2');
    const all = [plain, ...Object.values(forms), snap, oneByOne, zero, csvPlain, csvBody, csvSemi];
    for (const r of all) expect(r.status, r.raw).toBe(200);

    // the snapshot first (the row ingested before), then the changes
    await snap.until((r) => items(r).length === 1, 'the snapshot');
    expect(items(snap)).toEqual([{ insert: { ID: 1, S: 'before' } }]);
    const changes = ['{"insert":{"id":2,"s":"a;b"}}', '{"insert":{"id":3,"s":"c"}}', '{"delete":{"id":1,"s":"before"}}', '{"insert":{"id":4,"s":"d"}}'].join('\n');
    expect((await ingest(svc, 'e', 't', 'format=json', changes)).status).toBe(200);
    await plain.until((r) => r.items().length === 4, 'the changes');
    const expected = plain.items();
    expect(expected).toContainEqual({ delete: { ID: 1, S: 'before' } });
    for (const [name, r] of Object.entries(forms)) {
      await r.until((x) => items(x).length === 4, name);
      expect(items(r), name).toEqual(expected);
    }
    await snap.until((r) => items(r).length === 5, 'the changes after the snapshot');
    expect(items(snap).slice(1)).toEqual(expected);
    expect(dataFrames(snap).map((f) => f.snapshot)).toEqual([true, false]);
    // buffer_size_records=1 (and 0, as Feldera's encoder: one record per chunk): one record per frame
    for (const r of [oneByOne, zero]) {
      await r.until((x) => items(x).length === 4, 'one by one');
      expect(items(r)).toEqual(expected);
      expect(dataFrames(r).map((f) => f.json_data!.length)).toEqual([1, 1, 1, 1]);
    }
    // CSV: query and body alike; a delimiter of its own (the field holding it quoted), in chunks of 2 lines
    await csvPlain.until((r) => csvText(r).split('\n').length === 5, 'csv');
    await csvBody.until((r) => csvText(r) === csvText(csvPlain), 'csv body');
    expect(csvText(csvPlain).split('\n').filter(Boolean).sort()).toEqual(['1,before,-1', '2,a;b,1', '3,c,1', '4,d,1']);
    await csvSemi.until((r) => csvText(r).split('\n').length === 5, 'csv ;');
    expect(csvText(csvSemi)).toBe(csvText(csvPlain).replace('1,before,-1', '1;before;-1').replace('2,a;b,1', '2;"a;b";1').replace('3,c,1', '3;c;1').replace('4,d,1', '4;d;1'));
    expect(dataFrames(csvSemi).map((f) => f.text_data!.split('\n').length - 1)).toEqual([2, 2]);

    // the stats report each stream's configuration
    const outputs: any[] = (await svc.call('GET', '/v0/pipelines/e/stats')).json.outputs;
    expect(outputs).toHaveLength(all.length);
    const configs = outputs.map((o) => o.config);
    // the query's backpressure=true read from 4 (the SDK's three among them: a null or empty body is no config), the body's from 1
    expect(configs.filter((c) => c.backpressure)).toHaveLength(5);
    expect(configs.filter((c) => c.transport.config.backpressure === true)).toHaveLength(5);
    expect(configs.filter((c) => c.send_snapshot)).toHaveLength(1);
    expect(configs.find((c) => c.format.name === 'csv' && c.format.config.delimiter === ';').format.config.buffer_size_records).toBe(2);
    expect(configs.filter((c) => c.format.name === 'json').every((c) => c.format.config.array === true)).toBe(true);
    for (const r of all) r.close();
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/e/stats')).json.outputs.length === 0, 'the streams to close');
  });

  it("update_format=snowflake: one record per frame, Snowflake's fields and flavor, numbered per stream", async () => {
    expect((await ingest(svc, 'e', 'u', 'format=json', '{"insert":{"id":10,"ts":"2024-01-02 03:04:05.12","v":{"k":[1,2]}}}')).status).toBe(200);
    const a = await WatchReader.open(svc, 'e', 'tv', 'format=json&update_format=snowflake');
    const b = await WatchReader.open(svc, 'e', 'tv', '', { format: { name: 'json', config: { array: true, update_format: 'snowflake' } }, send_snapshot: true });
    const plain = await WatchReader.open(svc, 'e', 'tv', 'format=json');
    // b's snapshot: the row there before it opened, numbered 0
    await b.until((r) => items(r).length === 1, 'the snapshot');
    const change = '{"delete":{"id":10,"ts":"2024-01-02 03:04:05.12","v":{"k":[1,2]}}}\n{"insert":{"id":11,"ts":"2024-01-02 03:04:05","v":null}}';
    expect((await ingest(svc, 'e', 'u', 'format=json', change)).status).toBe(200);
    await a.until((r) => items(r).length === 2, 'the changes');
    await b.until((r) => items(r).length === 3, 'the changes after the snapshot');
    await plain.until((r) => r.items().length === 2, 'the plain changes');

    // one record per frame, each the row's fields then Snowflake's
    expect(dataFrames(a).map((f) => f.json_data!.length)).toEqual([1, 1]);
    const [del, ins] = items(a);
    expect(Object.keys(del)).toEqual(['ID', 'TS', 'V', '__action', '__stream_id', '__seq_number']);
    expect(del).toMatchObject({ ID: 10, TS: '2024-01-02T03:04:05.120+00:00', V: '{"k":[1,2]}', __action: 'delete', __seq_number: 0 });
    expect(ins).toMatchObject({ ID: 11, TS: '2024-01-02T03:04:05+00:00', V: null, __action: 'insert', __seq_number: 1 });
    // the same stream id throughout a stream, 63 bits (written digit-exact), its own per stream
    const ids = (r: WatchReader) => [...new Set([...r.raw.matchAll(/"__stream_id":(\d+),/g)].map((m) => m[1]!))];
    const streamIds = [...ids(a), ...ids(b)];
    expect(streamIds).toHaveLength(2);
    expect(streamIds[0]).not.toBe(streamIds[1]);
    for (const id of streamIds) expect(BigInt(id!) < 2n ** 63n).toBe(true);
    // b: the snapshot numbered first, the changes after it
    expect(items(b).map((x) => [x.ID, x.__action, x.__seq_number])).toEqual([
      [10, 'insert', 0],
      [10, 'delete', 1],
      [11, 'insert', 2],
    ]);
    // the plain stream is untouched by the snowflake ones
    expect(plain.items()).toEqual([{ delete: { ID: 10, TS: '2024-01-02 03:04:05.12', V: { k: [1, 2] } } }, { insert: { ID: 11, TS: '2024-01-02 03:04:05', V: null } }]);
    for (const r of [a, b, plain]) r.close();
  });
});

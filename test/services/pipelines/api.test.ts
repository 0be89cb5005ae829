/** Pipeline definitions, lifecycle errors and the error envelope, over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, pipelineBody, shutdown, startRunning, startSvc, waitFor, type Svc } from './helpers.js';

const SQL = 'CREATE TABLE t1 (c1 INTEGER, c2 VARCHAR);\nCREATE VIEW v1 AS SELECT c1 FROM t1 WHERE c1 > 1;\n';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
});
afterAll(async () => {
  await svc.close();
});

describe('pipeline definitions', () => {
  it('GET /v0/programs and /v0/pipelines answer [] when empty', async () => {
    expect((await svc.call('GET', '/v0/programs')).json).toEqual([]);
    expect((await svc.call('GET', '/v0/pipelines')).json).toEqual([]);
  });

  it('PUT creates (201) with the whole pipeline object, then updates (200) bumping versions', async () => {
    const r = await svc.call('PUT', '/v0/pipelines/defs', pipelineBody('defs', SQL));
    expect(r.status).toBe(201);
    expect(Object.keys(r.json)).toEqual([
      'id',
      'name',
      'description',
      'version',
      'created_at',
      'runtime_config',
      'program_code',
      'program_config',
      'program_version',
      'program_status',
      'program_status_since',
      'program_info',
      'program_binary_url',
      'deployment_status',
      'deployment_status_since',
      'deployment_desired_status',
      'deployment_error',
      'deployment_config',
      'deployment_location',
    ]);
    expect(r.json).toMatchObject({
      name: 'defs',
      version: 1,
      program_version: 1,
      program_status: 'Pending',
      deployment_status: 'Shutdown',
      deployment_desired_status: 'Shutdown',
      program_config: { profile: null },
    });
    expect(r.json.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r.json.runtime_config).toMatchObject({ workers: 4, storage: false, min_storage_bytes: null, resources: { memory_mb_max: null } });

    // same body: no version change
    const same = await svc.call('PUT', '/v0/pipelines/defs', pipelineBody('defs', SQL));
    expect(same.status).toBe(200);
    expect(same.json).toMatchObject({ version: 1, program_version: 1 });

    // description only: version bumps, program version does not
    const desc = await svc.call('PUT', '/v0/pipelines/defs', { ...pipelineBody('defs', SQL), description: 'changed' });
    expect(desc.json).toMatchObject({ version: 2, program_version: 1 });

    // code change: both bump, program goes back to Pending and program_info is reset
    const code = await svc.call('PUT', '/v0/pipelines/defs', pipelineBody('defs', SQL + '-- comment\n'));
    expect(code.status).toBe(200);
    expect(code.json).toMatchObject({ version: 3, program_version: 2, program_status: 'Pending', program_info: null });

    const programs = await svc.call('GET', '/v0/programs');
    expect(programs.json).toEqual([expect.objectContaining({ program_id: r.json.id, name: 'defs', version: 2 })]);
    const list = await svc.call('GET', '/v0/pipelines?code=false');
    expect(list.json).toHaveLength(1);
    expect(list.json[0].program_code).toBeNull();
  });

  it('compiles asynchronously to Success with program_info', async () => {
    const p = await createCompiled(svc, 'compiled', SQL);
    expect(p.program_info.schema.inputs[0]).toMatchObject({ name: 'T1', case_sensitive: false, materialized: false });
    expect(p.program_info.schema.inputs[0].fields[0]).toMatchObject({ name: 'C1', columntype: { type: 'INTEGER', nullable: true } });
    expect(p.program_info.schema.outputs.map((o: any) => o.name)).toEqual(['V1']);
    expect(p.program_binary_url).toEqual(expect.any(String));
  });

  it('POST /v0/pipelines creates, and a duplicate name is 409 DuplicateName', async () => {
    const r = await svc.call('POST', '/v0/pipelines', pipelineBody('posted', SQL));
    expect(r.status).toBe(201);
    const dup = await svc.call('POST', '/v0/pipelines', pipelineBody('posted', SQL));
    expect(dup.status).toBe(409);
    expect(dup.json).toEqual({ message: 'An entity with this name already exists', error_code: 'DuplicateName', details: null });
  });

  it('PATCH changes only the given fields', async () => {
    await svc.call('PUT', '/v0/pipelines/patched', pipelineBody('patched', SQL));
    const r = await svc.call('PATCH', '/v0/pipelines/patched', { description: 'new' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ description: 'new', version: 2, program_version: 1, program_code: SQL });
  });

  it('unknown pipelines are 404 UnknownPipelineName everywhere', async () => {
    for (const [method, path] of [
      ['GET', '/v0/pipelines/nope'],
      ['DELETE', '/v0/pipelines/nope'],
      ['POST', '/v0/pipelines/nope/start'],
      ['GET', '/v0/pipelines/nope/stats'],
      ['POST', '/v0/pipelines/nope/ingress/t1?format=json'],
      ['POST', '/v0/pipelines/nope/egress/v1?format=json'],
    ] as const) {
      const r = await svc.call(method, path);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.json).toEqual({ message: "Unknown pipeline name 'nope'", error_code: 'UnknownPipelineName', details: { pipeline_name: 'nope' } });
    }
  });

  it('bad bodies are 400 with the error envelope', async () => {
    const notJson = await svc.call('PUT', '/v0/pipelines/bad', undefined, { raw: '{not json', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(notJson.json.error_code).toBe('InvalidRequestBody');
    const noCode = await svc.call('PUT', '/v0/pipelines/bad', { name: 'bad', description: '' });
    expect(noCode.status).toBe(400);
    expect(noCode.json.message).toContain('program_code');
    const rename = await svc.call('PUT', '/v0/pipelines/bad', pipelineBody('other', SQL));
    expect(rename.status).toBe(400);
    expect(rename.json.error_code).toBe('CannotRenameNonExistingPipeline');
    const badName = await svc.call('PUT', '/v0/pipelines/bad%20name', pipelineBody('bad name', SQL));
    expect(badName.status).toBe(400);
    const badAction = await svc.call('POST', '/v0/pipelines/patched/explode');
    expect(badAction.status).toBe(400);
    expect(badAction.json.error_code).toBe('InvalidPipelineAction');
    const unknownRoute = await svc.call('GET', '/v0/nothing-here');
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.json).toMatchObject({ error_code: 'NotFound' });
    const badEncoding = await svc.call('GET', '/v0/pipelines/%E0%A4%A');
    expect(badEncoding.status).toBe(400);
    expect(badEncoding.json).toMatchObject({ error_code: 'InvalidUrl', details: { url: '/v0/pipelines/%E0%A4%A' } });
    expect(badEncoding.json.message).toContain('Invalid URL');
  });

  it('program_config.output_case other than "upper" or "lower" is 400 on PUT, POST and PATCH, and changes nothing', async () => {
    const put = await svc.call('PUT', '/v0/pipelines/oc', pipelineBody('oc', SQL, { program_config: { output_case: 'Lower' } }));
    expect(put.status).toBe(400);
    expect(put.json).toMatchObject({ error_code: 'InvalidRequestBody' });
    expect(put.json.message).toContain('output_case');
    expect((await svc.call('GET', '/v0/pipelines/oc')).status).toBe(404);
    const post = await svc.call('POST', '/v0/pipelines', pipelineBody('oc', SQL, { program_config: { output_case: 1 } }));
    expect(post.status).toBe(400);
    expect((await svc.call('PUT', '/v0/pipelines/oc', pipelineBody('oc', SQL, { program_config: { output_case: 'lower' } }))).status).toBe(201);
    const patch = await svc.call('PATCH', '/v0/pipelines/oc', { program_config: { output_case: 'sideways' } });
    expect(patch.status).toBe(400);
    expect((await svc.call('GET', '/v0/pipelines/oc')).json.program_config).toMatchObject({ output_case: 'lower' });
    expect((await svc.call('PATCH', '/v0/pipelines/oc', { program_config: { output_case: null } })).status).toBe(200);
  });

  it('start before compilation finished is 400 ProgramNotYetCompiled; stats of a stopped pipeline is PipelineNotRunningOrPaused', async () => {
    const slow = await startSvc({ pipelinesCompileDelayMs: 5000 });
    await slow.call('PUT', '/v0/pipelines/early', pipelineBody('early', SQL));
    const r = await slow.call('POST', '/v0/pipelines/early/start');
    await slow.close();
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ message: "The program hasn't been compiled yet", error_code: 'ProgramNotYetCompiled', details: null });
    await svc.call('PUT', '/v0/pipelines/early', pipelineBody('early', SQL));
    const stats = await svc.call('GET', '/v0/pipelines/early/stats');
    expect(stats.status).toBe(400);
    expect(stats.json).toMatchObject({ error_code: 'PipelineNotRunningOrPaused', message: expect.stringMatching(/^Pipeline [0-9a-f-]{36} is not currently running or paused\.$/) });
  });

  it('delete: 400 while running, 200 with an empty body once shut down', async () => {
    await createCompiled(svc, 'deleteme', SQL);
    await startRunning(svc, 'deleteme');
    const busy = await svc.call('DELETE', '/v0/pipelines/deleteme');
    expect(busy.status).toBe(400);
    expect(busy.json.error_code).toBe('CannotDeleteNonShutdownPipeline');
    await shutdown(svc, 'deleteme');
    const del = await svc.call('DELETE', '/v0/pipelines/deleteme');
    expect(del.status).toBe(200);
    expect(del.text).toBe('');
    expect((await svc.call('GET', '/v0/pipelines/deleteme')).status).toBe(404);
  });
});

describe('SQL errors', () => {
  it('a bad program ends in SqlError with line and column; start is 400 ProgramFailedToCompile', async () => {
    const sql = 'CREATE TABLE t (x INTEGER);\nCREATE VIEW v AS SELECT nosuchcolumn FROM t;\n';
    await svc.call('PUT', '/v0/pipelines/sqlerr', pipelineBody('sqlerr', sql));
    const p = await waitFor(async () => {
      const r = await svc.call('GET', '/v0/pipelines/sqlerr');
      return typeof r.json.program_status === 'object' ? r.json : undefined;
    }, 'SqlError');
    expect(Object.keys(p.program_status)).toEqual(['SqlError']);
    const [m] = p.program_status.SqlError;
    expect(m).toMatchObject({ start_line_number: 2, warning: false, error_type: expect.any(String), message: expect.any(String) });
    expect(m.start_column).toBeGreaterThan(0);
    expect(m.message.toLowerCase()).toContain('nosuchcolumn');
    expect(p.deployment_status).toBe('Shutdown');
    expect(p.program_info).toBeNull();
    const start = await svc.call('POST', '/v0/pipelines/sqlerr/start');
    expect(start.status).toBe(400);
    expect(start.json).toEqual({ message: 'The program did not compile successfully', error_code: 'ProgramFailedToCompile', details: null });
    const syntax = await svc.call('PUT', '/v0/pipelines/sqlerr', pipelineBody('sqlerr', 'CREATE TABLE t (x INTEGER);\n\nCREATE VIEW v AS SELEC x FROM t;'));
    expect(syntax.json.program_version).toBe(2);
    const p2 = await waitFor(async () => {
      const r = await svc.call('GET', '/v0/pipelines/sqlerr');
      return typeof r.json.program_status === 'object' ? r.json : undefined;
    }, 'SqlError 2');
    expect(p2.program_status.SqlError[0].start_line_number).toBe(3);
  });

  it('a connector declaration with an unknown transport is a SqlError of type ConnectorGenerationError', async () => {
    const sql = `CREATE TABLE t (x INTEGER) WITH ('connectors' = '[{"transport": {"name": "kafka_input", "config": {}}, "format": {"name": "json"}}]');`;
    await svc.call('PUT', '/v0/pipelines/conngen', pipelineBody('conngen', sql));
    const p = await waitFor(async () => {
      const r = await svc.call('GET', '/v0/pipelines/conngen');
      return typeof r.json.program_status === 'object' ? r.json : undefined;
    }, 'SqlError');
    expect(p.program_status.SqlError[0]).toMatchObject({ error_type: 'ConnectorGenerationError', start_line_number: 1 });
    expect(p.program_status.SqlError[0].message).toContain('kafka_input');
  });

  it('a connectors option that is not a JSON array of connectors is also a ConnectorGenerationError, at the option', async () => {
    const sql = `CREATE TABLE t (x INTEGER)\n  WITH ('connectors' = 'not json');`;
    await svc.call('PUT', '/v0/pipelines/connjson', pipelineBody('connjson', sql));
    const p = await waitFor(async () => {
      const r = await svc.call('GET', '/v0/pipelines/connjson');
      return typeof r.json.program_status === 'object' ? r.json : undefined;
    }, 'SqlError');
    expect(p.program_status.SqlError[0]).toMatchObject({ error_type: 'ConnectorGenerationError', start_line_number: 2, warning: false });
    expect(p.program_status.SqlError[0].message).toContain("Invalid JSON in 'connectors'");
  });
});

describe('lifecycle', () => {
  it('start -> Running, pause -> Paused, start -> Running, shutdown -> Shutdown; stats while running', async () => {
    await createCompiled(svc, 'life', SQL);
    const seen = new Set<string>();
    const start = await svc.call('POST', '/v0/pipelines/life/start');
    expect(start.status).toBe(202);
    expect(start.text).toBe('');
    await waitFor(async () => {
      const s = (await svc.call('GET', '/v0/pipelines/life')).json;
      seen.add(s.deployment_status);
      return s.deployment_status === 'Running';
    }, 'Running');
    const running = (await svc.call('GET', '/v0/pipelines/life')).json;
    expect(running).toMatchObject({ deployment_desired_status: 'Running', deployment_error: null });
    expect(running.deployment_config).toMatchObject({ workers: 4, name: `pipeline-${running.id}` });
    expect(running.deployment_location).toMatch(/^127\.0\.0\.1:\d+$/);
    const stats = await svc.call('GET', '/v0/pipelines/life/stats');
    expect(stats.status).toBe(200);
    expect(stats.json.global_metrics).toMatchObject({ state: 'Running', total_input_records: 0, total_processed_records: 0, buffered_input_records: 0 });
    expect(stats.json.global_metrics.uptime_msecs).toEqual(expect.any(Number));

    expect((await svc.call('POST', '/v0/pipelines/life/pause')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/life')).json.deployment_status === 'Paused', 'Paused');
    expect((await svc.call('GET', '/v0/pipelines/life/stats')).json.global_metrics.state).toBe('Paused');
    await startRunning(svc, 'life');
    await shutdown(svc, 'life');
    const after = (await svc.call('GET', '/v0/pipelines/life')).json;
    expect(after).toMatchObject({ deployment_desired_status: 'Shutdown', deployment_config: null, deployment_location: null });
  });

  it('pause from Shutdown deploys the pipeline Paused', async () => {
    await createCompiled(svc, 'pausefirst', SQL);
    expect((await svc.call('POST', '/v0/pipelines/pausefirst/pause')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/pausefirst')).json.deployment_status === 'Paused', 'Paused');
    await shutdown(svc, 'pausefirst');
  });

  it('a running pipeline keeps its program until restarted; the new program takes effect after restart', async () => {
    await createCompiled(svc, 'keep', 'CREATE TABLE t (x INTEGER);\nCREATE MATERIALIZED VIEW v AS SELECT x FROM t;');
    await startRunning(svc, 'keep');
    const put = await svc.call('PUT', '/v0/pipelines/keep', pipelineBody('keep', 'CREATE TABLE t (x INTEGER);\nCREATE MATERIALIZED VIEW w AS SELECT x FROM t;'));
    expect(put.status).toBe(200);
    expect(put.json.program_version).toBe(2);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/keep')).json.program_status === 'Success', 'recompiled');
    expect((await svc.call('GET', '/v0/pipelines/keep')).json.deployment_status).toBe('Running');
    // still the old program: v exists, w does not
    const ing = await svc.call('POST', '/v0/pipelines/keep/ingress/t?format=json', undefined, { raw: '{"insert": {"x": 1}}' });
    expect(ing.status).toBe(200);
    expect((await svc.call('POST', '/v0/pipelines/keep/egress/v?format=json&mode=snapshot')).json.json_data).toEqual([{ insert: { X: 1 } }]);
    expect((await svc.call('POST', '/v0/pipelines/keep/egress/w?format=json&mode=snapshot')).status).toBe(404);
    await shutdown(svc, 'keep');
    await startRunning(svc, 'keep');
    expect((await svc.call('POST', '/v0/pipelines/keep/egress/w?format=json&mode=snapshot')).json.json_data).toEqual([]);
    expect((await svc.call('POST', '/v0/pipelines/keep/egress/v?format=json&mode=snapshot')).json.error_code).toBe('UnknownOutputStream');
    await shutdown(svc, 'keep');
  });

  it('the logs endpoint returns the pipeline log lines as plain text', async () => {
    const r = await svc.call('GET', '/v0/pipelines/life/logs');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/plain');
    const lines = r.text.trim().split('\n');
    expect(lines.some((l) => /compiler-server life: program version 1 compiled/.test(l))).toBe(true);
    expect(lines.some((l) => /runner life: deployment status: Running/.test(l))).toBe(true);
    expect(() => JSON.parse(lines[0]!)).toThrow();
  });

  it('logs ?lines=N keeps the last N lines (0: none); a negative count is 400', async () => {
    const all = (await svc.call('GET', '/v0/pipelines/life/logs')).text.trim().split('\n');
    expect(all.length).toBeGreaterThan(2);
    expect((await svc.call('GET', '/v0/pipelines/life/logs?lines=2')).text.trim().split('\n')).toEqual(all.slice(-2));
    const none = await svc.call('GET', '/v0/pipelines/life/logs?lines=0');
    expect(none.status).toBe(200);
    expect(none.text).toBe('');
    const negative = await svc.call('GET', '/v0/pipelines/life/logs?lines=-1');
    expect(negative.status).toBe(400);
    expect(negative.json).toMatchObject({ error_code: 'InvalidQueryParameter', details: { param: 'lines', value: '-1' } });
  });

  it('with ENGINE_LOG_JSON=1 every log line is a JSON object with the engine fields', async () => {
    process.env.ENGINE_LOG_JSON = '1';
    try {
      const r = await svc.call('GET', '/v0/pipelines/life/logs');
      const id = (await svc.call('GET', '/v0/pipelines/life')).json.id;
      const objs = r.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      for (const o of objs) {
        expect(o).toMatchObject({ level: expect.any(String), target: expect.any(String), fields: { message: expect.any(String) }, 'pipeline-name': 'life', 'pipeline-id': id });
        expect(o.timestamp).toMatch(/\.\d{6}Z$/);
        expect(['manager', 'compiler-server', 'runner', 'pipeline']).toContain(o['engine-service']);
      }
      expect(objs.some((o) => o['engine-service'] === 'pipeline')).toBe(true);
      const service = await svc.call('GET', '/v0/logs');
      expect(JSON.parse(service.text.trim().split('\n')[0]!)).toMatchObject({ 'engine-service': 'manager' });
    } finally {
      delete process.env.ENGINE_LOG_JSON;
    }
  });
});

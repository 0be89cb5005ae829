/**
 * `POST /v0/validate_program` (today's Feldera): 200 with `{Success: {program_info}}`, `{SqlError: {info:
 * {exit_code, messages}}}` whatever the outcome; a body without program_code is 400 InvalidRequestBody; no
 * pipeline is created.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSvc, type Svc } from './helpers.js';

describe('POST /v0/validate_program', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc({ pipelineApi: 'current' });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('answers Success with the program info, and creates nothing', async () => {
    const res = await svc.call('POST', '/v0/validate_program', { program_code: 'CREATE TABLE t (x INT NOT NULL); CREATE MATERIALIZED VIEW m AS SELECT x FROM t;' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['Success']);
    expect(JSON.stringify(res.json.Success.program_info)).toMatch(/"T"|"t"/);
    expect((await svc.call('GET', '/v0/pipelines')).json).toEqual([]);
  });

  it('answers SqlError (still 200) with positioned messages', async () => {
    const res = await svc.call('POST', '/v0/validate_program', { program_code: 'CREATE TABLE t (x INT);\nCREATE VIEW v AS SELECT nope FROM t;' });
    expect(res.status).toBe(200);
    expect(res.json.SqlError.info.exit_code).toBe(1);
    expect(res.json.SqlError.info.messages[0]).toMatchObject({ start_line_number: 2, warning: false });
  });

  it('refuses a body without program_code or with a bad ir: 400 InvalidRequestBody', async () => {
    for (const body of [{}, { program_code: 1 }, { program_code: 'CREATE TABLE t (x INT);', ir: 'yes' }]) {
      const res = await svc.call('POST', '/v0/validate_program', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error_code).toBe('InvalidRequestBody');
    }
    expect((await svc.call('POST', '/v0/validate_program', undefined, { raw: '{not json', headers: { 'content-type': 'application/json' } })).status).toBe(400);
  });
});

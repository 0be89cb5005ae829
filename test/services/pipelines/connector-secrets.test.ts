/**
 * A `url_input` URL that carries credentials (a user and password, a token in the query) is not repeated
 * in what the pipeline service says about it: a failed start's deployment_error shows it redacted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, startSvc, waitFor, type Svc } from './helpers.js';
import { redactLocation } from '../../../src/services/redact.js';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc({ fetchPolicy: 'any' });
});
afterAll(() => svc.close());

describe('url_input credentials', { timeout: 60_000 }, () => {
  it('a failed start names the source with its password and token redacted', async () => {
    const url = 'http://reader:hunter2-pass@127.0.0.1:1/data.json?access_token=SECRET-TOKEN-42&day=monday';
    const sql = `CREATE TABLE t (id INTEGER) WITH ('connectors' = '[{"name": "src", "transport": {"name": "url_input", "config": {"path": "${url}"}}, "format": {"name": "json"}}]');
CREATE MATERIALIZED VIEW v AS SELECT * FROM t;`;
    await createCompiled(svc, 'leaky', sql);
    await svc.call('POST', '/v0/pipelines/leaky/start');
    const error = await waitFor(async () => (await svc.call('GET', '/v0/pipelines/leaky')).json.deployment_error, 'deployment_error');
    const text = JSON.stringify(error);
    expect(text).not.toContain('hunter2-pass');
    expect(text).not.toContain('SECRET-TOKEN-42');
    expect(error.message).toContain('http://[REDACTED]@127.0.0.1:1/data.json?access_token=[REDACTED]&day=monday');
  });

  it('redactLocation replaces user info and secret parameters, and leaves plain paths alone', () => {
    expect(redactLocation('https://u:p@h.example/x?token=1&a=2')).toBe('https://[REDACTED]@h.example/x?token=[REDACTED]&a=2');
    expect(redactLocation('https://h.example/x?a=2')).toBe('https://h.example/x?a=2');
    expect(redactLocation('data/in.json')).toBe('data/in.json');
    expect(redactLocation('file:///tmp/in.json')).toBe('file:///tmp/in.json');
  });
});

/**
 * Pipeline connectors from the attacker's side: a program that names files outside the connector root
 * (absolute paths, `..`, a real symlink out, /proc), an output file outside it, an internal HTTP target
 * under --fetch-policy public, and a source over the size cap. Each is refused when the pipeline starts,
 * with a clear deployment_error that carries no content of the file, and nothing is read or written.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, shutdown, snapshot, startRunning, startSvc, waitFor, type Svc } from './helpers.js';

const base = mkdtempSync(join(tmpdir(), 'ops-conn-access-'));
const root = join(base, 'root');
const outsideDir = join(base, 'outside');
mkdirSync(root);
mkdirSync(outsideDir);
// A secret outside the root that parses as valid input: if it were read it would show up as rows.
const SECRET = '{"insert": {"id": 4242, "name": "TOPSECRET-credential"}}\n';
const secretFile = join(outsideDir, 'credentials.json');
writeFileSync(secretFile, SECRET);
writeFileSync(join(root, 'ok.json'), '{"insert": {"id": 1, "name": "fine"}}\n');

let svc: Svc;
let target: Server;
let targetUrl = '';
let targetHits = 0;
beforeAll(async () => {
  svc = await startSvc({ connectorRoot: root, fetchPolicy: 'public', connectorMaxBytes: 4096 });
  target = createServer((req, res) => {
    targetHits++;
    if (req.url === '/redirect') res.writeHead(302, { location: `http://127.0.0.1:${(target.address() as AddressInfo).port}/` }).end();
    else res.end(SECRET);
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await svc.close();
  await new Promise<void>((r) => target.close(() => r()));
});

const conn = (transport: string, path: string) => `'[{"name": "src", "transport": {"name": "${transport}", "config": {"path": "${path}"}}, "format": {"name": "json"}}]'`;

let n = 0;
/** Compiles and starts a program; answers its deployment_error once the start failed. */
async function startFails(sql: string): Promise<{ name: string; error: any }> {
  const name = `attack${++n}`;
  await createCompiled(svc, name, sql);
  await svc.call('POST', `/v0/pipelines/${name}/start`);
  const error = await waitFor(async () => (await svc.call('GET', `/v0/pipelines/${name}`)).json.deployment_error, 'deployment_error');
  expect((await svc.call('GET', `/v0/pipelines/${name}`)).json.deployment_status).toBe('Failed'); // v0.24: a failed start is Failed until /shutdown
  return { name, error };
}

function readsFrom(transport: string, path: string): string {
  return `CREATE TABLE t (id INTEGER, name VARCHAR) WITH ('connectors' = ${conn(transport, path)});
CREATE MATERIALIZED VIEW v AS SELECT * FROM t;`;
}

describe('file connectors reach only the connector root', () => {
  it('refuses /etc/passwd, /proc/self/environ and a file outside the root, as plain paths and file:// URLs', async () => {
    const cases = [
      ['url_input', '/etc/passwd'],
      ['file_input', '/etc/passwd'],
      ['url_input', '/proc/self/environ'],
      ['file_input', secretFile],
      ['url_input', pathToFileURL(secretFile).href],
    ] as const;
    // started all at once (each start is a worker of its own), checked one by one
    const results = await Promise.all(cases.map(([transport, path]) => startFails(readsFrom(transport, path))));
    for (const [i, [, path]] of cases.entries()) {
      const { error } = results[i]!;
      expect(error.error_code).toBe('InitializationError');
      expect(error.message, path).toContain(`'${path}' is outside the connector root ${root}`);
      const text = JSON.stringify(error);
      expect(text).not.toContain('TOPSECRET');
      expect(text).not.toContain('root:x:0');
      expect(text).not.toContain('PATH=');
    }
  });

  it('says the same about a path outside the root whether it exists or not (nothing is looked at)', async () => {
    const a = await startFails(readsFrom('file_input', secretFile));
    const b = await startFails(readsFrom('file_input', join(outsideDir, 'no-such-file.json')));
    expect(a.error.details.cause).toMatch(/is outside the connector root/);
    expect(b.error.details.cause).toMatch(/is outside the connector root/);
  });

  it('refuses ../ out of the root', async () => {
    const paths = ['../outside/credentials.json', `${root}/../outside/credentials.json`, 'sub/../../outside/credentials.json'];
    const results = await Promise.all(paths.map((path) => startFails(readsFrom('file_input', path))));
    for (const [i, path] of paths.entries()) {
      const { error } = results[i]!;
      expect(error.message, path).toMatch(/is outside the connector root/);
      expect(JSON.stringify(error)).not.toContain('TOPSECRET');
    }
  });

  it('refuses a real symlink inside the root that leads out of it (to a file, to a directory, to /proc)', async () => {
    symlinkSync(secretFile, join(root, 'innocent.json'));
    symlinkSync(outsideDir, join(root, 'linked-dir'));
    symlinkSync('/proc/self/environ', join(root, 'env.json'));
    const paths = ['innocent.json', join(root, 'innocent.json'), 'linked-dir/credentials.json', 'env.json'];
    const results = await Promise.all(paths.map((path) => startFails(readsFrom('file_input', path))));
    for (const [i, path] of paths.entries()) {
      const { error } = results[i]!;
      expect(error.message, path).toMatch(/is outside the connector root/);
      const text = JSON.stringify(error);
      expect(text).not.toContain('TOPSECRET');
      expect(text).not.toContain('PATH=');
    }
  });

  it('refuses file_output outside the root, through ../ or a symlink: nothing is created or appended, no input read', async () => {
    const victim = join(outsideDir, 'bashrc');
    writeFileSync(victim, 'original\n');
    symlinkSync(victim, join(root, 'out-link.jsonl'));
    const created = join(outsideDir, 'created.jsonl');
    const before = targetHits;
    const paths = [victim, '../outside/created.jsonl', created, 'out-link.jsonl', 'linked-dir/created.jsonl'];
    // The input is an allowed file plus an http source: neither may be read when the sink is refused.
    const sql = (path: string) => `CREATE TABLE t (id INTEGER, name VARCHAR) WITH ('connectors' = ${conn('file_input', 'ok.json')});
CREATE TABLE h (id INTEGER, name VARCHAR) WITH ('connectors' = ${conn('url_input', `${targetUrl}/`)});
CREATE VIEW v WITH ('connectors' = ${conn('file_output', path)}) AS SELECT * FROM t;`;
    const results = await Promise.all(paths.map((path) => startFails(sql(path))));
    for (const [i, path] of paths.entries()) {
      const { error } = results[i]!;
      expect(error.message, path).toMatch(/Output connector .* cannot open its sink .*outside the connector root/);
    }
    expect(readFileSync(victim, 'utf8')).toBe('original\n');
    expect(existsSync(created)).toBe(false);
    expect(targetHits).toBe(before);
  });

  it('a file under the root is read, an output under it is written 0600', async () => {
    const sql = `CREATE TABLE t (id INTEGER, name VARCHAR) WITH ('connectors' = ${conn('file_input', 'ok.json')});
CREATE MATERIALIZED VIEW v WITH ('connectors' = ${conn('file_output', 'out.jsonl')}) AS SELECT * FROM t;`;
    await createCompiled(svc, 'allowed', sql);
    await startRunning(svc, 'allowed');
    const snap = await waitFor(async () => {
      const s = await snapshot(svc, 'allowed', 'v');
      return s.json_data?.length ? s : undefined;
    }, 'rows');
    expect(snap.json_data.map((x: any) => x.insert)).toEqual([{ ID: 1, NAME: 'fine' }]);
    await waitFor(() => existsSync(join(root, 'out.jsonl')) && readFileSync(join(root, 'out.jsonl'), 'utf8').includes('fine'), 'output');
    expect(statSync(join(root, 'out.jsonl')).mode & 0o777).toBe(0o600);
    await shutdown(svc, 'allowed');
  });

  it('quotes at most 100 characters of a bad record in the parse errors', async () => {
    writeFileSync(join(root, 'bad.json'), `{"insert": {"id": "${'x'.repeat(3000)}"}}\n`);
    const { error } = await startFails(readsFrom('file_input', 'bad.json'));
    expect(error.details.errors.length).toBeGreaterThan(0);
    for (const e of error.details.errors) expect((e.invalid_text ?? '').length).toBeLessThanOrEqual(101);
    expect(JSON.stringify(error).length).toBeLessThan(2500);
  });
});

describe('url_input over http', () => {
  it('under --fetch-policy public, refuses an internal server in every spelling and through a redirect: nothing fetched', async () => {
    const port = new URL(targetUrl).port;
    const before = targetHits;
    const urls = [`${targetUrl}/`, `http://localhost:${port}/`, `http://0x7f000001:${port}/`, `http://2130706433:${port}/`, `http://0177.0.0.1:${port}/`];
    const results = await Promise.all(urls.map((url) => startFails(readsFrom('url_input', url))));
    for (const [i, url] of urls.entries()) {
      const { error } = results[i]!;
      expect(error.message, url).toMatch(/refused by the fetch policy 'public'.*loopback/);
    }
    expect(targetHits).toBe(before);
  });

  it('refuses a source over the size cap with a clear error (http and file)', async () => {
    const big = createServer((_req, res) => {
      // streamed without a content-length: the cap is enforced while reading
      res.write('{"insert": {"id": 1, "name": "' + 'y'.repeat(3000));
      res.end('y'.repeat(3000) + '"}}\n');
    });
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', r));
    const svcAny = await startSvc({ connectorRoot: root, fetchPolicy: 'any', connectorMaxBytes: 4096 });
    try {
      await createCompiled(svcAny, 'bigsrc', readsFrom('url_input', `http://127.0.0.1:${(big.address() as AddressInfo).port}/`));
      await svcAny.call('POST', '/v0/pipelines/bigsrc/start');
      const err = await waitFor(async () => (await svcAny.call('GET', '/v0/pipelines/bigsrc')).json.deployment_error, 'deployment_error');
      expect(err.message).toMatch(/larger than the connector limit of 4096 bytes/);
    } finally {
      await svcAny.close();
      await new Promise<void>((r) => big.close(() => r()));
    }
    writeFileSync(join(root, 'big.json'), 'z'.repeat(10_000));
    const { error } = await startFails(readsFrom('file_input', 'big.json'));
    expect(error.message).toMatch(/larger than the connector limit of 4096 bytes/);
  });
});

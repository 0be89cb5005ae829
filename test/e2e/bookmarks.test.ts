/** `ops serve` as a process, talked to over HTTP: the bookmark API, its admin commands, and a kill -9 in between. */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, ops, startServe, tempDir } from '../helpers/cli.js';

async function api(url: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

describe('bookmarks through ops serve', () => {
  it('serves the API with the token written into the local profile; users and tokens managed while it runs', async () => {
    const env = isolatedEnv();
    const serve = await startServe(['--no-link-check', '--no-metadata', '--rate-limit', '1000'], env);
    try {
      const tok = await ops(['config', 'get', 'bm.token', '--show-secret'], { env });
      expect(tok.exitCode).toBe(0);
      const token = tok.stdout.trim();
      expect(token).toMatch(/^\d+\|/);
      expect(await fetch(`${serve.url}/api/version`).then((r) => r.json())).toEqual({ version: '2.0' });
      const created = await api(serve.url, token, 'POST', '/api/v2/links', { url: 'https://e2e.example/page', tags: ['e2e'], visibility: 1 });
      expect(created.status).toBe(200);
      expect(created.body.title).toBe('e2e.example');
      const list = await api(serve.url, token, 'GET', '/api/v2/links');
      expect(list.body.meta.total).toBe(1);
      expect(list.headers.get('x-ratelimit-limit')).toBe('1000');
      expect(list.body.links.first).toBe(`${serve.url}/api/v2/links?page=1`);
      const search = await api(serve.url, token, 'GET', '/api/v2/search/links?query=e2e');
      expect(search.body.data.map((l: any) => l.url)).toEqual(['https://e2e.example/page']);
      const spec = (await fetch(`${serve.url}/openapi.json`).then((r) => r.json())) as { paths: Record<string, unknown> };
      expect(Object.keys(spec.paths)).toContain('/api/v2/links/{id}');
      expect((await api(serve.url, 'nope', 'GET', '/api/v2/links')).status).toBe(401);

      // a user added by the CLI can use the API at once; a revoked token stops at once
      const added = await ops(['--json', 'serve', 'user', 'add', '--name', 'Eve', '--email', 'eve@example.com', '--data-dir', serve.dataDir], { env });
      expect(added.exitCode).toBe(0);
      const eve = JSON.parse(added.stdout) as { user: { id: number }; token: string };
      const seen = await api(serve.url, eve.token, 'GET', '/api/v2/links');
      expect([seen.status, seen.body?.meta?.total, seen.body?.message]).toEqual([200, 1, undefined]); // the public link
      // LinkAce's policies: another user may update a shared link, only its owner may delete it
      expect((await api(serve.url, eve.token, 'DELETE', `/api/v2/links/${created.body.id}`)).status).toBe(403);
      const tokens = JSON.parse((await ops(['--json', 'serve', 'token', 'list', '--user', 'eve@example.com', '--data-dir', serve.dataDir], { env })).stdout);
      const revoke = await ops(['--yes', 'serve', 'token', 'revoke', String(tokens[0].id), '--data-dir', serve.dataDir], { env });
      expect(revoke.exitCode).toBe(0);
      expect((await api(serve.url, eve.token, 'GET', '/api/v2/links')).status).toBe(401);
    } finally {
      await serve.stop('SIGTERM');
    }
  });

  it('refuses a malformed rate limit as a usage error', async () => {
    const r = await ops(['serve', '--port', '0', '--rate-limit', 'lots', '--data-dir', tempDir('ops-data-')], { env: isolatedEnv() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('invalid API rate limit "lots"');
  });

  it('loses nothing when killed with SIGKILL between requests', async () => {
    const env = isolatedEnv();
    const dataDir = tempDir('ops-data-');
    const first = await startServe(['--no-link-check', '--no-metadata'], env, dataDir);
    let token: string;
    try {
      token = (await ops(['config', 'get', 'bm.token', '--show-secret'], { env })).stdout.trim();
      for (let i = 0; i < 20; i++) expect((await api(first.url, token, 'POST', '/api/v2/links', { url: `https://kill${i}.example` })).status).toBe(200);
      const l = await api(first.url, token, 'GET', '/api/v2/links?per_page=1');
      await api(first.url, token, 'DELETE', `/api/v2/links/${l.body.data[0].id}`);
    } finally {
      await first.stop('SIGKILL');
    }
    const second = await startServe(['--no-link-check', '--no-metadata'], env, dataDir);
    try {
      // no new admin on a restart: the profile keeps the first token
      expect((await ops(['config', 'get', 'bm.token', '--show-secret'], { env })).stdout.trim()).toBe(token);
      const l = await api(second.url, token, 'GET', '/api/v2/links?per_page=-1');
      expect(l.status).toBe(200);
      expect(l.body.meta.total).toBe(19);
      expect((await api(second.url, token, 'GET', '/api/v2/trash/links')).body).toHaveLength(1);
    } finally {
      await second.stop('SIGTERM');
    }
  });
});

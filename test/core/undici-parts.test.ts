/** core/undici-parts.ts: the parts of undici loaded by path are undici's own, and a request through them works. */
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import { Agent, requestWith } from '../../src/core/undici-parts.js';

describe('undici parts', () => {
  it('are the very Agent undici exports (an undici that moves its files fails here)', () => {
    expect(Agent).toBe(undici.Agent);
  });

  it('send a request as undici.request does: method, path with query, headers, body, answer', async () => {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization, body })));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new Agent();
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a/b?x=1&y=%20`;
      const res = await requestWith(agent, url, { method: 'POST', headers: { authorization: 'Bearer t' }, body: 'hello' });
      expect(res.statusCode).toBe(201);
      expect(await res.body.json()).toEqual({ method: 'POST', url: '/a/b?x=1&y=%20', auth: 'Bearer t', body: 'hello' });
    } finally {
      await agent.close();
      server.close();
    }
  });
});

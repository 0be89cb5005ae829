import { it, expect } from 'vitest';
import { rawClient } from '../../helpers/raw-client.js';
import { createCompiled, startRunning, ingest, startSvc, waitFor, WatchReader } from './helpers.js';
const SQL = 'CREATE TABLE t (id BIGINT NOT NULL, s VARCHAR);\nCREATE VIEW v AS SELECT id, s FROM t;';
it('probe', async () => {
  const svc = await startSvc();
  await createCompiled(svc, 'p', SQL);
  await startRunning(svc, 'p');
  const variant = process.env.V ?? 'all';
  if (variant === 'all' || variant === 'ingress') {
    const ingress = await rawClient(svc.base);
    ingress.write(`POST /v0/pipelines/p/ingress/t?format=json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"insert":{"id":1,`);
  }
  if (variant === 'all' || variant === 'stalled') {
    const stalled = await rawClient(svc.base);
    stalled.write(`POST /v0/pipelines/p/egress/v?format=json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n`);
    await waitFor(() => stalled.received.startsWith('HTTP/1.1 200'), 'x');
    stalled.socket.pause();
    const s = 'x'.repeat(2000);
    for (let step = 0; step < 8; step++) {
      const body = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ insert: { id: step * 500 + i, s } })));
      expect((await ingest(svc, 'p', 't', 'format=json&array=true', body)).status).toBe(200);
    }
  }
  await new Promise((r) => setTimeout(r, 300));
  const t0 = Date.now();
  await svc.close();
  console.log(variant, 'close took', Date.now() - t0);
}, 60000);

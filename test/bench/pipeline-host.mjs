// The pipeline service alone on a loopback Fastify server, in this process, as the benches that measure it
// over HTTP use it: a fresh data directory (removed on close), the service under /v0, any service options
// given (limits a bench sets low). Imports the built code (npm run bench builds it).
import Fastify from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../../dist/services/events.js';
import service from '../../dist/services/pipelines/index.js';

/** Starts the service; gives its base URL and a close() that stops it and removes its data. */
export async function pipelineHost(name, options = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `ops-bench-${name}-`));
  const app = Fastify({ logger: false, forceCloseConnections: 'idle' });
  let handle;
  let baseUrl = '';
  await app.register(
    async (scope) => {
      handle = await service.register(scope, { dataDir, options: { host: '127.0.0.1', port: 0, dataDir, ...options }, log: app.log, events: new EventBus(), baseUrl: () => baseUrl });
    },
    { prefix: '/v0' },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${app.server.address().port}`;
  return {
    base: baseUrl,
    async close() {
      await app.close();
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

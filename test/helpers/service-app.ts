/**
 * Builds a fastify app hosting one service exactly as `ops serve` does (encapsulated, under its
 * prefix), for in-process tests with app.inject() or a real listener on 127.0.0.1.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../../src/services/events.js';
import { closePromptly, serverTimeoutOptions } from '../../src/services/connections.js';
import { MAX_PARAM_LENGTH, frameworkErrors } from '../../src/services/server.js';
import type { ServeOptions, ServiceHandle, ServiceModule } from '../../src/services/types.js';

export interface ServiceApp {
  app: FastifyInstance;
  handle: ServiceHandle;
  events: EventBus;
  dataDir: string;
  /** Listen on 127.0.0.1 (random port) and return the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export async function buildServiceApp(
  mod: ServiceModule,
  options: Partial<ServeOptions> = {},
  shared: { events?: EventBus; dataDir?: string; beforeRoutes?: (app: FastifyInstance) => Promise<void> } = {},
): Promise<ServiceApp> {
  const dataDir = shared.dataDir ?? mkdtempSync(join(tmpdir(), `ops-${mod.name}-`));
  const serviceDir = join(dataDir, mod.name);
  mkdirSync(serviceDir, { recursive: true });
  const events = shared.events ?? new EventBus();
  const opts: ServeOptions = { host: '127.0.0.1', port: 0, dataDir, ...options };
  const app = Fastify({
    logger: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    ...serverTimeoutOptions(opts.connectionTimeouts),
  });
  closePromptly(app, opts.closeGraceMs);
  await shared.beforeRoutes?.(app); // plugins that watch routes being added (@fastify/swagger)
  let baseUrl = 'http://127.0.0.1';
  let handle!: ServiceHandle;
  await app.register(
    async (scope) => {
      handle = await mod.register(scope, { dataDir: serviceDir, options: opts, log: app.log, events, baseUrl: () => baseUrl });
    },
    { prefix: mod.prefix },
  );
  await app.ready();
  let listening = false;
  return {
    app,
    get handle() {
      return handle;
    },
    events,
    dataDir,
    async listen() {
      if (!listening) {
        await app.listen({ host: '127.0.0.1', port: 0 });
        listening = true;
        const addr = app.server.address();
        if (addr && typeof addr === 'object') baseUrl = `http://127.0.0.1:${addr.port}`;
        await handle.started?.();
      }
      return baseUrl;
    },
    async close() {
      await app.close();
      await handle.close();
    },
  };
}

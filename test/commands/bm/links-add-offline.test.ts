/**
 * `ops bm links add` of a page the service cannot fetch (in process, against an in-process bookmark service that
 * fetches metadata): the link is saved broken with its check disabled, as LinkAce does, and the command says why
 * and how to turn the check back on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Context } from '../../../src/context.js';
import { startServer, type RunningServer } from '../../../src/services/server.js';
import bookmarks from '../../../src/services/bookmarks/index.js';
import { runLinksAdd } from '../../../src/commands/bm/links.js';
import { memoryIo } from '../../helpers/memory-io.js';
import { tempDir } from '../../helpers/cli.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir: tempDir('ops-offline-'), fetchMetadata: true, linkCheck: false }, [bookmarks]);
});
afterAll(async () => {
  await server?.close();
});

describe('ops bm links add, page offline', () => {
  it('says the service could not fetch the page, and how to enable the check again', async () => {
    const env = { OPS_BM_URL: server.url, OPS_BM_TOKEN: server.credentials.bmToken!, OPS_CONFIG_DIR: tempDir('ops-cfg-') };
    const io = memoryIo({ env });
    await runLinksAdd({ url: 'http://127.0.0.1:9/offline-page' }, new Context({}, env, io));
    const id = /added link (\d+)/.exec(io.stderrText())?.[1];
    expect(id).toBeDefined();
    expect(io.stderrText()).toContain(
      `! the bookmark service could not fetch http://127.0.0.1:9/offline-page when saving it (offline, unreachable from the service, or refused): saved as broken, with the host as title and its health check disabled\n  Once the page is up: ops bm links edit ${id} --check-enabled, then ops bm check`,
    );
    // asked for (--check-disabled) or --json: no such warning
    const asked = memoryIo({ env });
    await runLinksAdd({ url: 'http://127.0.0.1:9/other', checkDisabled: true }, new Context({}, env, asked));
    expect(asked.stderrText()).not.toContain('could not fetch');
  });
});

/**
 * Completion of tag names and event types: the generated tables ask `ops completion __values tags|events` for the
 * values of `--tag` (bm) and of an event type (hook), and those print the names the services have (in process,
 * against an in-process ops serve with the bookmark and notification services).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/services/server.js';
import bookmarks from '../../../src/services/bookmarks/index.js';
import notifications from '../../../src/services/notifications/index.js';
import { buildProgram } from '../../../src/program.js';
import { describeTree } from '../../../src/docs/tree.js';
import { buildTables } from '../../../src/commands/completion/tables.js';
import { opsIn } from '../../helpers/ops-in-process.js';
import { isolatedEnv, tempDir } from '../../helpers/cli.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir: tempDir('ops-complete-'), fetchMetadata: false, linkCheck: false }, [bookmarks, notifications]);
});
afterAll(async () => {
  await server?.close();
});

describe('completion of tag names and event types', () => {
  it('the tables ask for tags after --tag/--add-tag under bm, and for event types in hook trigger and --events', async () => {
    const tables = buildTables(describeTree(await buildProgram([], { loadAll: true })));
    const path = (p: string) => tables.paths.find((t) => t.path === p)!;
    const opt = (p: string, word: string) => path(p).opts.find((o) => o.word === word)?.value;
    expect(opt('bm links add', '--tag')).toBe('d:tags');
    expect(opt('bm links edit', '--remove-tag')).toBe('d:tags');
    expect(opt('hook register', '--events')).toBe('d:events');
    expect(path('hook trigger').args).toEqual(['d:events']);
    expect(opt('hook deliveries', '--event')).toBe('-'); // an event id, not a type
  });

  it('`ops completion __values tags|events` prints the names the services have; nothing when they cannot be reached', async () => {
    const env = isolatedEnv({ OPS_BM_URL: server.url, OPS_BM_TOKEN: server.credentials.bmToken!, OPS_NOTIFY_URL: `${server.url}/notify`, OPS_NOTIFY_API_KEY: server.credentials.notifyApiKey! });
    for (const name of ['reading', 'docs']) {
      const res = await fetch(`${server.url}/api/v2/tags`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.credentials.bmToken}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ name }),
      });
      expect(res.status).toBe(200);
    }
    const tags = await opsIn(['completion', '__values', 'tags'], { env });
    expect(tags).toMatchObject({ exitCode: 0, stdout: 'docs\nreading', stderr: '' });
    const events = await opsIn(['completion', '__values', 'events'], { env });
    expect(events.exitCode).toBe(0);
    expect(events.stdout.split('\n')).toEqual(expect.arrayContaining(['payment.completed', 'user.created', 'link.created']));
    const offline = await opsIn(['completion', '__values', 'tags'], { env: isolatedEnv({ OPS_BM_URL: 'http://127.0.0.1:9' }) });
    expect(offline).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
  });
});

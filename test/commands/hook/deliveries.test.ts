/** `ops hook deliveries` in process against the notification service hosted as `ops serve` does. */
import { afterEach, describe, expect, it } from 'vitest';
import { Context } from '../../../src/context.js';
import { runHookDeliveries } from '../../../src/commands/hook/deliveries.js';
import service from '../../../src/services/notifications/index.js';
import { buildServiceApp, type ServiceApp } from '../../helpers/service-app.js';
import { memoryIo } from '../../helpers/memory-io.js';
import { tempDir } from '../../helpers/cli.js';
import { plain, tty } from '../../e2e/bm-helpers.js';

let s: ServiceApp | undefined;
afterEach(async () => {
  await s?.close();
});

describe('ops hook deliveries', () => {
  it('--type keeps deliveries of events of that type', async () => {
    s = await buildServiceApp(service, {}); // not listening yet: deliveries stay pending
    const key = (await s.handle.localCredentials!()).notifyApiKey!;
    const headers = { authorization: `Bearer ${key}` };
    await s.app.inject({ method: 'POST', url: '/notify/v1/webhooks', payload: { url: 'http://127.0.0.1:9/', events: ['*'], secret: 'x' }, headers });
    await s.app.inject({ method: 'POST', url: '/notify/v1/events/trigger', payload: { type: 'user.deleted' }, headers });
    const { deliveries } = (await s.app.inject({ method: 'POST', url: '/notify/v1/events/trigger', payload: { type: 'tag.created' }, headers })).json();
    const base = await s.listen();
    const env = { OPS_CONFIG_DIR: tempDir(), XDG_STATE_HOME: tempDir(), OPS_NOTIFY_URL: `${base}/notify`, OPS_NOTIFY_API_KEY: key };
    const io = memoryIo({ env });
    await runHookDeliveries({ type: 'tag.created' }, new Context({ json: true }, env, io));
    const out = JSON.parse(io.stdoutText());
    expect(out.map((d: { id: string; eventType: string }) => [d.id, d.eventType])).toEqual([[deliveries[0], 'tag.created']]);
  });
});

describe('ops hook deliveries on an 80-column terminal', () => {
  it('fits every row on one line: relative next attempt, the event id left out (it stays in --json)', async () => {
    s = await buildServiceApp(service, {}); // not listening yet: deliveries stay pending
    const key = (await s.handle.localCredentials!()).notifyApiKey!;
    const headers = { authorization: `Bearer ${key}` };
    await s.app.inject({ method: 'POST', url: '/notify/v1/webhooks', payload: { url: 'http://127.0.0.1:9/a/rather/long/receiver/path', events: ['*'], secret: 'x' }, headers });
    for (const type of ['payment.completed', 'tag.created', 'user.deleted']) await s.app.inject({ method: 'POST', url: '/notify/v1/events/trigger', payload: { type }, headers });
    const base = await s.listen();
    const env = { ...process.env, OPS_CONFIG_DIR: tempDir(), XDG_STATE_HOME: tempDir(), OPS_NOTIFY_URL: `${base}/notify`, OPS_NOTIFY_API_KEY: key, NO_COLOR: '1' };
    const r = await tty(['hook', 'deliveries'], env, 80);
    expect(r.exitCode, r.output).toBe(0);
    const lines = plain(r.output).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+TYPE\s+TRIES\s+LAST\s+NEXT\s+URL$/);
    expect(lines).toHaveLength(5); // header, 3 deliveries, the counts
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    for (const line of lines.slice(1, 4)) expect(line).toMatch(/^dlv_\w+\s+(pending|failed)\s+\S+\s+\d+\s+.*\s+(in \d+s|in \d+m|)\s+http/);
    expect(lines[4]).toMatch(/^3 of 3 shown/);
  });
});

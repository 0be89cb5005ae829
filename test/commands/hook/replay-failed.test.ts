/** `ops hook replay --failed` in-process against the notification service hosted as `ops serve` does. */
import { afterEach, describe, expect, it } from 'vitest';
import { Context } from '../../../src/context.js';
import { runHookReplay } from '../../../src/commands/hook/replay.js';
import service from '../../../src/services/notifications/index.js';
import { buildServiceApp } from '../../helpers/service-app.js';
import { memoryIo } from '../../helpers/memory-io.js';
import { tempDir } from '../../helpers/cli.js';
import { eventually, startTestReceiver } from '../../helpers/test-receiver.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('ops hook replay --failed', () => {
  it('skips failed deliveries of deleted webhooks instead of stopping at the first one', async () => {
    const s = await buildServiceApp(service, { retryScale: 0.0001 });
    cleanups.push(() => s.close());
    const key = (await s.handle.localCredentials!()).notifyApiKey!;
    const base = await s.listen();
    const call = async (method: string, url: string, payload?: unknown) => s.app.inject({ method: method as 'GET', url, payload: payload as string, headers: { authorization: `Bearer ${key}` } });
    const json = async (method: string, url: string, payload?: unknown) => (await call(method, url, payload)).json();

    const rcv = await startTestReceiver(() => ({ status: 500 }));
    cleanups.push(() => rcv.close());
    await json('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['payment.completed'], secret: 'a' });
    const live = (await json('POST', '/notify/v1/events/trigger', { type: 'payment.completed' })).deliveries[0];
    await eventually(async () => (await json('GET', `/notify/v1/deliveries/${live}`)).status === 'failed', 30_000);

    // a newer failed delivery whose webhook is gone (listed first: newest first)
    const gone = await json('POST', '/notify/v1/webhooks', { url: 'http://127.0.0.1:9/', events: ['user.deleted'], secret: 'b' });
    const orphan = (await json('POST', '/notify/v1/events/trigger', { type: 'user.deleted' })).deliveries[0];
    expect((await call('DELETE', `/notify/v1/webhooks/${gone.id}`)).statusCode).toBe(204);
    await eventually(async () => (await json('GET', `/notify/v1/deliveries/${orphan}`)).status === 'failed');

    rcv.setBehaviour(() => ({ status: 200 }));
    const env = { OPS_CONFIG_DIR: tempDir(), XDG_STATE_HOME: tempDir(), OPS_NOTIFY_URL: `${base}/notify`, OPS_NOTIFY_API_KEY: key };
    const io = memoryIo({ env });
    await runHookReplay({ failed: true }, new Context({ json: true }, env, io));
    const out = JSON.parse(io.stdoutText());
    expect(out.map((d: { id: string }) => d.id)).toEqual([live]);
    expect(io.stderrText()).toContain('1 failed delivery of deleted webhooks skipped');
    await eventually(async () => (await json('GET', `/notify/v1/deliveries/${live}`)).status === 'delivered');
    expect((await json('GET', `/notify/v1/deliveries/${orphan}`)).status).toBe('failed');
  }, 40_000);
});

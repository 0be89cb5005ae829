/** API errors of the notification service as `ops hook` commands report them (in process). */
import { afterEach, describe, expect, it } from 'vitest';
import { Context } from '../../../src/context.js';
import { runHookRegister } from '../../../src/commands/hook/register.js';
import service from '../../../src/services/notifications/index.js';
import { buildServiceApp, type ServiceApp } from '../../helpers/service-app.js';
import { memoryIo } from '../../helpers/memory-io.js';
import { tempDir } from '../../helpers/cli.js';

let s: ServiceApp | undefined;
afterEach(async () => {
  await s?.close();
});

describe('ops hook: API errors', () => {
  it('a validation error names each problem once (exit 1)', async () => {
    s = await buildServiceApp(service, {});
    const key = (await s.handle.localCredentials!()).notifyApiKey!;
    const base = await s.listen();
    const env = { OPS_CONFIG_DIR: tempDir(), XDG_STATE_HOME: tempDir(), OPS_NOTIFY_URL: `${base}/notify`, OPS_NOTIFY_API_KEY: key, OPS_HOOK_SECRET: 'x' };
    const ctx = new Context({}, env, memoryIo({ env }));
    const err = await runHookRegister({ urlArg: 'http://127.0.0.1:9/', events: ['user.exploded', 'user.created'] }, ctx).then(
      () => null,
      (e: Error & { exitCode?: number }) => e,
    );
    expect(err).not.toBeNull();
    expect(err!.exitCode).toBe(1);
    expect(err!.message.match(/unknown event type "user.exploded"/g)).toHaveLength(1);
  });
});

describe('ops hook redeliver', () => {
  it('queues every given delivery it can, then reports the ones refused (exit 1)', async () => {
    s = await buildServiceApp(service, {}); // not listening yet: the delivery waits, unattempted
    const key = (await s.handle.localCredentials!()).notifyApiKey!;
    const headers = { authorization: `Bearer ${key}` };
    await s.app.inject({ method: 'POST', url: '/notify/v1/webhooks', payload: { url: 'http://127.0.0.1:9/', events: ['*'], secret: 'x' }, headers });
    const { deliveries } = (await s.app.inject({ method: 'POST', url: '/notify/v1/events/trigger', payload: { type: 'tag.created' }, headers })).json();
    const base = await s.listen();
    // listening starts the worker, whose first attempt (refused at once) is refused a redelivery while in flight:
    // wait until it is over (the next retry is seconds away), so the redelivery below meets a delivery at rest
    for (let at = Date.now(); Date.now() - at < 20_000; await new Promise((r) => setTimeout(r, 10))) {
      const d = (await s.app.inject({ method: 'GET', url: `/notify/v1/deliveries/${deliveries[0]}`, headers })).json<{ attemptCount: number }>();
      if (d.attemptCount >= 1) break;
    }
    const env = { OPS_CONFIG_DIR: tempDir(), XDG_STATE_HOME: tempDir(), OPS_NOTIFY_URL: `${base}/notify`, OPS_NOTIFY_API_KEY: key };
    const io = memoryIo({ env });
    const { runHookRedeliver } = await import('../../../src/commands/hook/deliveries.js');
    const err = await runHookRedeliver({ ids: ['dlv_nope', deliveries[0]] }, new Context({ json: true }, env, io)).then(
      () => null,
      (e: Error & { exitCode?: number }) => e,
    );
    expect(err?.exitCode).toBe(1);
    expect(err?.message).toContain('dlv_nope: no delivery dlv_nope');
    expect(JSON.parse(io.stdoutText()).map((d: { id: string }) => d.id)).toEqual([deliveries[0]]);
  });
});

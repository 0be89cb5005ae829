/** `ops hook trigger` in process against an in-process notification service: an unknown event type is a usage error. */
import { afterAll, describe, expect, it } from 'vitest';
import service from '../../../src/services/notifications/index.js';
import { buildServiceApp, type ServiceApp } from '../../helpers/service-app.js';
import { tempDir } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';

let s: ServiceApp | undefined;
afterAll(async () => {
  await s?.close();
});

describe('ops hook trigger', () => {
  it('an event type the service does not know is a usage error (exit 2) naming the known ones and --list', async () => {
    s = await buildServiceApp(service, {});
    const key = (await s.handle.localCredentials!()).notifyApiKey!;
    const base = await s.listen();
    const env = { OPS_CONFIG_DIR: tempDir(), XDG_STATE_HOME: tempDir(), OPS_NOTIFY_URL: `${base}/notify`, OPS_NOTIFY_API_KEY: key };
    const r = await opsIn(['hook', 'trigger', 'no.such.type'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^ops: error: unknown event type "no\.such\.type": .*payment\.completed/);
    expect(r.stderr).toContain('ops hook trigger --list shows the types.');
    expect((await opsIn(['hook', 'trigger', 'payment.completed'], { env })).exitCode).toBe(0);
  });
});

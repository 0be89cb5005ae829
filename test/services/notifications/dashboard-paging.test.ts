/**
 * Description 3: "failed deliveries are visible in the dashboard", all of them: beyond one page
 * the dashboard links to older deliveries.
 */
import { afterEach, describe, expect, it } from 'vitest';
import service from '../../../src/services/notifications/index.js';
import { DASHBOARD_PAGE_SIZE } from '../../../src/services/notifications/dashboard.js';
import { buildServiceApp, type ServiceApp } from '../../helpers/service-app.js';

let s: ServiceApp | undefined;
afterEach(async () => {
  await s?.close();
});

const rowIds = (html: string) => [...html.matchAll(/<tr data-delivery-id="([^"]+)"/g)].map((m) => m[1]!);

describe('dashboard paging', () => {
  it('shows every failed delivery, a page at a time', async () => {
    s = await buildServiceApp(service, { retryScale: 0.0001 }); // not listening: the worker sends nothing
    const key = (await s.handle.localCredentials!()).notifyApiKey!;
    const headers = { authorization: `Bearer ${key}` };
    const w = (await s.app.inject({ method: 'POST', url: '/notify/v1/webhooks', payload: { url: 'http://127.0.0.1:9/', events: ['*'], secret: 'x' }, headers })).json();
    const n = DASHBOARD_PAGE_SIZE + 5;
    for (let i = 0; i < n; i++) {
      await s.app.inject({ method: 'POST', url: '/notify/v1/events/trigger', payload: { type: 'tag.created' }, headers });
    }
    // deleting the webhook fails its pending deliveries at once
    await s.app.inject({ method: 'DELETE', url: `/notify/v1/webhooks/${w.id}`, headers });
    const all = (await s.app.inject({ url: '/notify/v1/deliveries?status=failed&limit=500', headers })).json();
    expect(all.total).toBe(n);

    const first = (await s.app.inject({ url: '/notify/dashboard?status=failed', headers })).body;
    expect(rowIds(first)).toHaveLength(DASHBOARD_PAGE_SIZE);
    const older = /<a rel="next" href="([^"]+)"/.exec(first)?.[1]?.replace(/&amp;/g, '&');
    expect(older).toBe(`/notify/dashboard?status=failed&offset=${DASHBOARD_PAGE_SIZE}`);
    const second = (await s.app.inject({ url: older!, headers })).body;
    expect(rowIds(second)).toHaveLength(5);
    expect(second).toContain('rel="prev"');
    expect(second).not.toContain('rel="next"');
    expect(new Set([...rowIds(first), ...rowIds(second)])).toEqual(new Set(all.data.map((d: { id: string }) => d.id)));
    // a bad offset is the first page
    expect(rowIds((await s.app.inject({ url: '/notify/dashboard?status=failed&offset=-3', headers })).body)).toEqual(rowIds(first));
  }, 60_000);
});

/** The delivery dashboard opened in headless chromium: a failed delivery and its Redeliver button. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import service from '../../../src/services/notifications/index.js';
import { renderDashboard } from '../../../src/services/notifications/dashboard.js';
import { buildServiceApp, type ServiceApp } from '../../helpers/service-app.js';
import { launchChromium } from '../../helpers/browser.js';
import { eventually, startTestReceiver, type TestReceiver } from '../../helpers/test-receiver.js';

let browser: Browser;
let s: ServiceApp;
let rcv: TestReceiver;
let base: string;
let key: string;

beforeAll(async () => {
  browser = await launchChromium();
  s = await buildServiceApp(service, { retryScale: 0.0001 });
  key = (await s.handle.localCredentials!()).notifyApiKey!;
  base = await s.listen();
  rcv = await startTestReceiver(() => ({ status: 500, body: 'receiver <b>broken</b>' }));
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
  await rcv?.close();
});

const api = (method: string, url: string, payload?: unknown) =>
  s.app.inject({ method: method as 'GET', url, payload: payload as string, headers: { authorization: `Bearer ${key}` } }).then((r) => r.json());

describe('dashboard', () => {
  it('asks for the key without it', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${base}/notify/dashboard`);
    expect(res!.status()).toBe(401);
    expect(await page.textContent('h1')).toBe('API key needed');
    const bad = await page.goto(`${base}/notify/dashboard?key=ntf_wrong`);
    expect(bad!.status()).toBe(401);
    await page.close();
  });

  it('shows a failed delivery with its attempts, failed first, and Redeliver works', async () => {
    await api('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['*'], secret: 'dash' });
    const first = await api('POST', '/notify/v1/events/trigger', { type: 'payment.failed' });
    const failedId: string = first.deliveries[0];
    await eventually(async () => (await api('GET', `/notify/v1/deliveries/${failedId}`)).status === 'failed');
    rcv.setBehaviour(() => ({ status: 200 }));
    const ok = await api('POST', '/notify/v1/events/trigger', { type: 'user.created' });
    await eventually(async () => (await api('GET', `/notify/v1/deliveries/${ok.deliveries[0]}`)).status === 'delivered');
    rcv.setBehaviour(() => ({ status: 500, body: 'receiver <b>broken</b>' }));

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/notify/dashboard?key=${encodeURIComponent(key)}`);
    expect(new URL(page.url()).search).toBe(''); // the key is moved into a cookie
    const rows = page.locator('tbody tr[data-delivery-id]');
    expect(await rows.count()).toBe(2);
    // failed first
    expect(await rows.nth(0).getAttribute('data-delivery-id')).toBe(failedId);
    expect(await rows.nth(0).getAttribute('data-status')).toBe('failed');
    expect(await rows.nth(1).getAttribute('data-status')).toBe('delivered');
    const failedRow = page.locator(`tr[data-delivery-id="${failedId}"]`);
    expect(await failedRow.locator('li.attempt').count()).toBe(5);
    expect(await failedRow.locator('li.attempt').first().textContent()).toContain('HTTP 500');
    // receiver text is escaped, never markup
    expect(await failedRow.locator('.excerpt b').count()).toBe(0);
    expect(await failedRow.locator('.excerpt').first().textContent()).toBe('receiver <b>broken</b>');

    // the filter
    await page.click('nav a[href$="status=failed"]');
    expect(await page.locator('tbody tr[data-delivery-id]').count()).toBe(1);

    // redeliver: the receiver works again
    rcv.setBehaviour(() => ({ status: 200 }));
    const before = rcv.requests.length;
    await page.locator(`button[data-delivery="${failedId}"]`).click();
    await page.waitForLoadState();
    expect(await page.locator('.flash').textContent()).toContain(`Redelivery of ${failedId} queued`);
    await eventually(async () => (await api('GET', `/notify/v1/deliveries/${failedId}`)).status === 'delivered');
    expect(rcv.requests.length).toBe(before + 1);
    await page.reload();
    const row = page.locator(`tr[data-delivery-id="${failedId}"]`);
    expect(await row.getAttribute('data-status')).toBe('delivered');
    expect(await row.locator('li.attempt').count()).toBe(6);
    expect(await row.locator('li.attempt').last().textContent()).toContain('HTTP 200');
    await context.close();
  });

  it('lists the webhooks marked failed (a delivery failed every attempt) above the deliveries', async () => {
    const dead = await startTestReceiver(() => ({ status: 503 }));
    try {
      const w = await api('POST', '/notify/v1/webhooks', { url: dead.url, events: ['payment.completed'], secret: 'x' });
      await api('POST', '/notify/v1/events/trigger', { type: 'payment.completed' });
      await eventually(async () => (await api('GET', `/notify/v1/webhooks/${w.id}`)).status === 'failed');
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${base}/notify/dashboard?key=${encodeURIComponent(key)}`);
      const item = page.locator(`.failed-webhooks li[data-webhook-id="${w.id}"]`);
      expect(await item.count()).toBe(1);
      expect(await item.textContent()).toContain(dead.url);
      await context.close();
      await s.app.inject({ method: 'DELETE', url: `/notify/v1/webhooks/${w.id}`, headers: { authorization: `Bearer ${key}` } });
    } finally {
      await dead.close();
    }
  });

  it('shows no text taken from the URL; a refused redelivery gets its own notice', async () => {
    const headers = { authorization: `Bearer ${key}` };
    const spoof = await s.app.inject({ url: '/notify/dashboard?flash=Your%20key%20expired%2C%20visit%20evil.example', headers });
    expect(spoof.body).not.toContain('evil.example');
    const spoof2 = await s.app.inject({ url: '/notify/dashboard?redelivered=nothing.%20Visit%20evil.example', headers });
    expect(spoof2.body).not.toContain('evil.example');
    const r = await s.app.inject({ method: 'POST', url: '/notify/dashboard/deliveries/dlv_nope/redeliver', payload: '', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } });
    expect(r.statusCode).toBe(303);
    const page = await s.app.inject({ url: r.headers.location as string, headers });
    expect(page.body).toContain('No delivery dlv_nope.');
  });

  it('the redeliver form refuses requests without the key', async () => {
    const r = await s.app.inject({ method: 'POST', url: '/notify/dashboard/deliveries/dlv_x/redeliver', payload: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(r.statusCode).toBe(401);
  });

  it('the redeliver form refuses a POST authorised by the cookie but without its CSRF token, or with a wrong one', async () => {
    rcv.setBehaviour(() => ({ status: 500 }));
    const first = await api('POST', '/notify/v1/events/trigger', { type: 'payment.failed' });
    const id: string = first.deliveries[0];
    await eventually(async () => (await api('GET', `/notify/v1/deliveries/${id}`)).status === 'failed');
    const before = (await api('GET', `/notify/v1/deliveries/${id}`)).attempts.length;
    const cookie = `ops_notify_key=${encodeURIComponent(key)}`;
    const post = (payload: string) =>
      s.app.inject({ method: 'POST', url: `/notify/dashboard/deliveries/${id}/redeliver`, payload, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' } });
    for (const payload of ['', 'csrf=', 'csrf=forged-token-value-of-the-right-length-000000', `csrf=${'A'.repeat(43)}`]) {
      const r = await post(payload);
      expect(r.statusCode, payload).toBe(403);
      expect(r.body).toContain('Form expired or forged');
    }
    // the page's own token (read from the form) works
    const page = await s.app.inject({ url: '/notify/dashboard', headers: { cookie } });
    const token = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
    expect((await post(`csrf=${encodeURIComponent(token)}`)).statusCode).toBe(303);
    await eventually(async () => (await api('GET', `/notify/v1/deliveries/${id}`)).attempts.length > before);
  });

  it('renders an empty page', () => {
    const html = renderDashboard([], { pending: 0, delivered: 0, failed: 0 }, { base: '/notify', total: 0 });
    expect(html).toContain('No deliveries yet.');
    expect(html).not.toContain('Failed webhooks');
    expect(html).toContain('Attempts: immediately, then 1 min, 5 min, 30 min, 2 h after each failure.');
    // the schedule in use with ops serve --retry-scale
    const fast = renderDashboard([], { pending: 0, delivered: 0, failed: 0 }, { base: '/notify', total: 0, retryScale: 0.001 });
    expect(fast).toContain('Attempts: immediately, then 60 ms, 300 ms, 1.8 s, 7.2 s after each failure.');
  });
});

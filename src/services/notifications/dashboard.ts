/**
 * The delivery dashboard (GET /notify/dashboard): deliveries with their attempts, failed first,
 * each with a Redeliver button (a plain form POST, so it works without JavaScript).
 * Auth: the API key as a Bearer header, or a one-time link: `POST /dashboard/links` (Bearer key) makes a
 * code good for one use within LINK_CODE_TTL_MS; `GET /dashboard?code=...` exchanges it for an
 * HttpOnly, SameSite=Strict cookie and redirects to the clean URL, so the long-lived key never appears
 * in a URL, a browser history or a log. (`?key=...` is still taken, for links printed by older clients;
 * the request log redacts it.)
 * Every dashboard answer carries `Referrer-Policy: no-referrer` and `Cache-Control: no-store`.
 * CSRF: SameSite does not separate ports of 127.0.0.1, so each form carries a token, the HMAC of the
 * cookie under a secret made when the server starts; a POST authorised by the cookie must carry it
 * (compared in constant time). A POST with a Bearer header needs none (a page cannot set that header).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './errors.js';
import { bearerCredential, cookieValue } from '../kit/credentials.js';
import type { Notifier } from './service.js';
import type { Delivery, DeliveryStatus, Webhook } from './store/index.js';
import { DELIVERY_STATUSES } from './store/index.js';
import { scaledSchedule } from '../../webhooks/schedule.js';
import { AuthThrottle } from '../auth-throttle.js';

export const DASHBOARD_COOKIE = 'ops_notify_key';
/** How long a one-time dashboard code may wait to be used. */
export const LINK_CODE_TTL_MS = 60_000;
/** Codes not yet used, at most (the oldest is dropped first). */
const MAX_PENDING_CODES = 100;

/** One-time codes for dashboard links: each maps to the key that asked for it, used once, expiring. */
export class LinkCodes {
  private readonly pending = new Map<string, { key: string; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(key: string): { code: string; expiresAt: number } {
    for (const [c, v] of this.pending) if (v.expiresAt <= this.now()) this.pending.delete(c);
    while (this.pending.size >= MAX_PENDING_CODES) this.pending.delete(this.pending.keys().next().value!);
    const code = randomBytes(24).toString('base64url');
    const expiresAt = this.now() + LINK_CODE_TTL_MS;
    this.pending.set(code, { key, expiresAt });
    return { code, expiresAt };
  }

  /** The key a code stands for, once; undefined for an unknown, used or expired code. */
  redeem(code: string): string | undefined {
    const hit = this.pending.get(code);
    this.pending.delete(code);
    return hit && hit.expiresAt > this.now() ? hit.key : undefined;
  }
}
/** Deliveries per dashboard page; older ones are a link away, so no failed delivery is out of sight. */
export const DASHBOARD_PAGE_SIZE = 200;

const esc = (s: unknown): string =>
  String(s ?? '')
    // control characters from receivers never reach the page
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1d1d1f;background:#fafafa}
h1{font-size:1.3rem;margin:0 0 .5rem} h2{font-size:1.1rem;margin:1rem 0 .3rem} nav a{margin-right:.8rem}
table{border-collapse:collapse;width:100%;background:#fff} th,td{border-bottom:1px solid #e3e3e3;padding:.4rem .5rem;text-align:left;vertical-align:top}
th{background:#f0f0f0;font-weight:600} code{font-size:12px}
.status{font-weight:600;padding:.1rem .4rem;border-radius:.3rem}
.status-failed{background:#fde2e1;color:#a40e0e}.status-pending{background:#fff4ce;color:#7a5a00}.status-delivered{background:#dff6dd;color:#0b6a0b}
.attempts{margin:.3rem 0 0;padding-left:1.2rem} .muted{color:#666} .excerpt{white-space:pre-wrap;word-break:break-all;color:#444}
button{cursor:pointer} .flash{background:#e8f0fe;padding:.4rem .6rem;border-radius:.3rem;margin:.5rem 0}
`;

function attemptLine(a: Delivery['attempts'][number]): string {
  const what = a.outcome === 'in_flight' ? 'in flight' : a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? a.outcome);
  const dur = a.durationMs !== null ? ` · ${Math.round(a.durationMs)} ms` : '';
  const err = a.statusCode !== null && a.error ? ` · ${esc(a.error)}` : '';
  const excerpt = a.responseExcerpt ? `<div class="excerpt">${esc(a.responseExcerpt.slice(0, 200))}</div>` : '';
  return `<li class="attempt attempt-${esc(a.outcome)}">#${a.n} <time>${esc(a.startedAt)}</time> · ${esc(a.outcome)} · ${esc(what)}${dur}${err}${excerpt}</li>`;
}

function row(d: Delivery, base: string, csrf: string): string {
  const canRedeliver = !d.attempts.some((a) => a.outcome === 'in_flight');
  const token = csrf ? `<input type="hidden" name="csrf" value="${esc(csrf)}">` : '';
  const button = canRedeliver
    ? `<form method="post" action="${esc(base)}/dashboard/deliveries/${esc(d.id)}/redeliver">${token}<button type="submit" data-delivery="${esc(d.id)}">Redeliver</button></form>`
    : '<span class="muted">in flight</span>';
  return `<tr data-delivery-id="${esc(d.id)}" data-status="${esc(d.status)}">
<td><span class="status status-${esc(d.status)}">${esc(d.status)}</span></td>
<td>${esc(d.eventType)}<br><code>${esc(d.eventId)}</code></td>
<td><code>${esc(d.url)}</code><br><span class="muted">${esc(d.webhookId)}</span></td>
<td>${d.attemptCount}${d.nextAttemptAt ? `<br><span class="muted">next ${esc(d.nextAttemptAt)}</span>` : ''}
${d.attempts.length ? `<ol class="attempts">${d.attempts.map(attemptLine).join('')}</ol>` : ''}</td>
<td>${esc(d.lastError ?? '')}</td>
<td><time>${esc(d.createdAt)}</time></td>
<td>${button}</td></tr>`;
}

const duration = (ms: number): string =>
  ms < 1000 ? `${ms} ms` : ms < 60_000 ? `${+(ms / 1000).toFixed(1)} s` : ms < 3_600_000 ? `${+(ms / 60_000).toFixed(1)} min` : `${+(ms / 3_600_000).toFixed(1)} h`;

/** "immediately, then 1 min, 5 min, 30 min, 2 h" for the schedule in use (ops serve --retry-scale). */
export function describeSchedule(retryScale = 1): string {
  return `immediately, then ${scaledSchedule(retryScale).slice(1).map(duration).join(', ')}`;
}

/** The webhooks marked failed (a delivery to them failed every attempt), above the deliveries. */
function failedWebhooks(webhooks: Pick<Webhook, 'id' | 'url' | 'failedAt'>[]): string {
  if (webhooks.length === 0) return '';
  const items = webhooks
    .map(
      (w) =>
        `<li data-webhook-id="${esc(w.id)}"><span class="status status-failed">failed</span> <code>${esc(w.id)}</code> <code>${esc(w.url)}</code> <span class="muted">since <time>${esc(w.failedAt)}</time></span></li>`,
    )
    .join('');
  return `<section class="failed-webhooks"><h2>Failed webhooks</h2><p class="muted">A delivery to these receivers failed every attempt; they are active again after their next successful delivery.</p><ul>${items}</ul></section>`;
}

export function renderDashboard(
  deliveries: Delivery[],
  counts: Record<DeliveryStatus, number>,
  opts: {
    base: string;
    /** The CSRF token the forms carry (empty for a page seen with a Bearer header). */
    csrf?: string;
    status?: DeliveryStatus;
    flash?: string;
    total: number;
    failedWebhooks?: Pick<Webhook, 'id' | 'url' | 'failedAt'>[];
    /** Paging: the first row shown (0-based) and the page size. */
    offset?: number;
    pageSize?: number;
    /** The retry delays' multiplier, for the schedule shown. */
    retryScale?: number;
  },
): string {
  const offset = opts.offset ?? 0;
  const pageSize = opts.pageSize ?? DASHBOARD_PAGE_SIZE;
  const pageLink = (o: number, text: string, rel: string) => {
    const q = new URLSearchParams();
    if (opts.status) q.set('status', opts.status);
    if (o > 0) q.set('offset', String(o));
    return `<a rel="${rel}" href="${esc(opts.base)}/dashboard${q.size ? `?${esc(q.toString())}` : ''}">${text}</a>`;
  };
  const pager =
    opts.total > pageSize || offset > 0
      ? `<nav class="pager">${offset > 0 ? pageLink(Math.max(0, offset - pageSize), '← newer', 'prev') : ''} <span class="muted">${
          opts.total === 0 ? 0 : Math.min(offset + 1, opts.total)
        }–${Math.min(offset + deliveries.length, opts.total)} of ${opts.total}</span> ${offset + pageSize < opts.total ? pageLink(offset + pageSize, 'older →', 'next') : ''}</nav>`
      : '';
  const link = (s?: DeliveryStatus) =>
    `<a href="${esc(opts.base)}/dashboard${s ? `?status=${s}` : ''}"${opts.status === s ? ' aria-current="page"' : ''}>${s ?? 'all'}${s ? ` (${counts[s]})` : ''}</a>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ops notifications · deliveries</title><style>${STYLE}</style></head>
<body>
<h1>Webhook deliveries</h1>
<nav>${link()}${DELIVERY_STATUSES.map((s) => link(s)).join('')}<a href="${esc(opts.base)}/dashboard${opts.status ? `?status=${opts.status}` : ''}">refresh</a></nav>
${opts.flash ? `<p class="flash" role="status">${esc(opts.flash)}</p>` : ''}
${failedWebhooks(opts.failedWebhooks ?? [])}
<p class="muted">${opts.total} deliveries${opts.status ? ` with status ${esc(opts.status)}` : ''}; failed first. Attempts: ${esc(describeSchedule(opts.retryScale))} after each failure.</p>
<table><thead><tr><th>Status</th><th>Event</th><th>Receiver</th><th>Attempts</th><th>Last error</th><th>Created</th><th></th></tr></thead>
<tbody>${deliveries.length ? deliveries.map((d) => row(d, opts.base, opts.csrf ?? '')).join('\n') : '<tr><td colspan="7" class="muted">No deliveries yet.</td></tr>'}</tbody></table>
${pager}
</body></html>`;
}

function unauthorizedPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ops notifications · sign in</title><style>${STYLE}</style></head>
<body><h1>API key needed</h1><p>Open a fresh link from <code>ops hook dashboard</code> (each link works once, for a
minute), or send <code>Authorization: Bearer &lt;key&gt;</code>.</p></body></html>`;
}

function throttledPage(retryAfter: number): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ops notifications · wait</title><style>${STYLE}</style></head>
<body><h1>Too many wrong keys</h1><p>Too many wrong API keys or links came from this address. Try again in ${retryAfter} s.</p></body></html>`;
}

export function registerDashboard(app: FastifyInstance, notifier: Notifier, isValidKey: (key: string) => boolean, throttle = new AuthThrottle(), codes = new LinkCodes()): void {
  app.register(async (scope) => dashboardRoutes(scope, notifier, isValidKey, throttle, codes));
}

function dashboardRoutes(app: FastifyInstance, notifier: Notifier, isValidKey: (key: string) => boolean, throttle: AuthThrottle, codes: LinkCodes): void {
  const base = app.prefix;
  // the page and its links must not leak through Referer headers or caches
  app.addHook('onRequest', async (_req, reply) => {
    reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
  });
  const cookiePath = base || '/';

  /**
   * Checks a presented key (or one-time code: `check` says which) under the throttle
   * (auth-throttle.ts): true when it is good; false once the refusal (401, or 429 when this client's
   * wrong keys spent their budget) was answered.
   */
  const admit = (req: FastifyRequest, reply: FastifyReply, credential: string | undefined, check: (c: string) => boolean, refuse = deny): boolean => {
    if (credential === undefined) {
      void refuse(reply);
      return false;
    }
    const wait = throttle.check(req.ip, credential);
    if (wait !== null) {
      void reply.code(429).header('retry-after', String(wait)).type('text/html; charset=utf-8').send(throttledPage(wait));
      return false;
    }
    if (!check(credential)) {
      throttle.failed(req.ip, credential);
      void refuse(reply);
      return false;
    }
    throttle.succeeded(credential);
    return true;
  };
  const authorized = (req: FastifyRequest, reply: FastifyReply): boolean =>
    admit(req, reply, bearerCredential(req.headers.authorization) ?? cookieValue(req.headers.cookie, DASHBOARD_COOKIE), isValidKey);
  // CSRF tokens: HMAC of the session cookie under a secret of this server run
  const csrfSecret = randomBytes(32);
  const csrfFor = (cookie: string) => createHmac('sha256', csrfSecret).update(cookie).digest('base64url');
  const csrfOk = (req: FastifyRequest): boolean => {
    if (bearerCredential(req.headers.authorization) !== undefined) return true;
    const cookie = cookieValue(req.headers.cookie, DASHBOARD_COOKIE);
    const sent = (req.body as Record<string, unknown> | undefined)?.csrf;
    if (cookie === undefined || typeof sent !== 'string') return false;
    const want = Buffer.from(csrfFor(cookie));
    const got = Buffer.from(sent);
    return got.length === want.length && timingSafeEqual(got, want);
  };
  const deny = (reply: FastifyReply) => reply.code(401).type('text/html; charset=utf-8').send(unauthorizedPage());

  // a one-time link: the API key as a Bearer header in, a code good for one use out
  app.post('/dashboard/links', async (req, reply) => {
    const key = bearerCredential(req.headers.authorization);
    const refuse = (r: FastifyReply) => sendError(r, 401, 'unauthorized', 'send the API key as Authorization: Bearer <key> to make a dashboard link');
    if (!admit(req, reply, key, isValidKey, refuse)) return reply;
    const { code, expiresAt } = codes.issue(key!);
    return reply.code(201).send({ code, url: `${base}/dashboard?code=${code}`, expires_at: new Date(expiresAt).toISOString() });
  });

  app.get<{ Querystring: { key?: string; code?: string; status?: string; redelivered?: string; refused?: string; offset?: string } }>('/dashboard', async (req, reply) => {
    const q = req.query;
    if (typeof q.key === 'string' || typeof q.code === 'string') {
      const got: { key?: string } = { key: q.key };
      if (typeof q.code === 'string') {
        const redeem = (c: string) => (got.key = codes.redeem(c)) !== undefined && isValidKey(got.key);
        if (!admit(req, reply, q.code, redeem)) return reply;
      } else if (!admit(req, reply, got.key, isValidKey)) return reply;
      const key = got.key!;
      const rest = new URLSearchParams();
      if (typeof q.status === 'string') rest.set('status', q.status);
      reply.header('set-cookie', `${DASHBOARD_COOKIE}=${encodeURIComponent(key)}; Path=${cookiePath}; HttpOnly; SameSite=Strict`);
      return reply.redirect(`${base}/dashboard${rest.size ? `?${rest}` : ''}`, 303);
    }
    if (!authorized(req, reply)) return reply;
    const status = (DELIVERY_STATUSES as readonly string[]).includes(q.status ?? '') ? (q.status as DeliveryStatus) : undefined;
    const rawOffset = q.offset;
    const offset = typeof rawOffset === 'string' && /^\d{1,9}$/.test(rawOffset) ? Number(rawOffset) : 0;
    const page = notifier.store.listDeliveries({ status, limit: DASHBOARD_PAGE_SIZE, offset });
    // The notice after a Redeliver click is made here from the outcome, never taken from the URL
    // (a link could otherwise put any text on the page).
    const idOf = (v: unknown) => (typeof v === 'string' && /^[\w-]{1,100}$/.test(v) ? v : undefined);
    const refusedId = idOf(q.refused);
    const redeliveredId = idOf(q.redelivered);
    const flash =
      redeliveredId !== undefined
        ? `Redelivery of ${redeliveredId} queued.`
        : refusedId !== undefined
          ? notifier.store.getDelivery(refusedId)
            ? `Delivery ${refusedId} cannot be redelivered now (its webhook was deleted, or an attempt is in progress).`
            : `No delivery ${refusedId}.`
          : undefined;
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        renderDashboard(page.data, notifier.store.countsByStatus(), {
          base,
          csrf: bearerCredential(req.headers.authorization) === undefined ? csrfFor(cookieValue(req.headers.cookie, DASHBOARD_COOKIE) ?? '') : '',
          status,
          flash,
          total: page.total,
          offset,
          retryScale: notifier.retryScale,
          failedWebhooks: notifier.store.listWebhooks().filter((w) => w.status === 'failed'),
        }),
      );
  });

  app.post<{ Params: { id: string } }>('/dashboard/deliveries/:id/redeliver', async (req, reply) => {
    if (!authorized(req, reply)) return reply;
    if (!csrfOk(req))
      return reply
        .code(403)
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ops notifications · refused</title><style>${STYLE}</style></head><body><h1>Form expired or forged</h1><p>The form did not carry this page's token (it expires when ops serve restarts). <a href="${esc(base)}/dashboard">Open the dashboard</a> and try again.</p></body></html>`,
        );
    const r = notifier.store.redeliver(req.params.id, notifier.clock.now());
    if (r.ok) notifier.worker.kick();
    const outcome = r.ok ? 'redelivered' : 'refused';
    return reply.redirect(`${base}/dashboard?${outcome}=${encodeURIComponent(req.params.id)}`, 303);
  });
}

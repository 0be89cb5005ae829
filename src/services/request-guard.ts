/**
 * Cross-site protection for every service of `ops serve` (one onRequest hook at the root, before any route):
 * web pages open in a browser on the machine must not drive or read the local API.
 *
 * Rules:
 * - Host: a request whose `Host` is not the bound address with the bound port is answered 421 — on a
 *   loopback bind also `localhost`, `127.0.0.1` and `[::1]` with the port. This defeats DNS rebinding
 *   (a page's own name pointed at 127.0.0.1 carries its own Host). On a wildcard bind (0.0.0.0, ::) the
 *   server is meant to be reached under whatever names point at the machine, so any Host is accepted.
 * - Origin: a request carrying an `Origin` other than the server's own (`http://` + its Host) is 403 on
 *   every method but GET and HEAD (and on those too when the browser says it is not a navigation, below).
 *   `Origin: null` (sandboxed frames, file: pages) is foreign, unless the browser marks the request
 *   `Sec-Fetch-Site: same-origin` (our own page under `Referrer-Policy: no-referrer` posting a form).
 * - Fetch metadata: a browser request marked `Sec-Fetch-Site: cross-site` or `same-site` (another port of
 *   127.0.0.1 is "same-site") is 403 unless it is a plain top-level navigation (GET/HEAD with
 *   `Sec-Fetch-Mode: navigate`), so pages cannot fire side-effecting GETs (e.g. a link check) either.
 * - Clients that send none of these headers (the CLI, `ops hook`, SDKs, curl) are unaffected. No route
 *   sends CORS headers, so a page cannot read any answer.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isLoopbackHost } from './net/fetch-policy.js';

export interface GuardTarget {
  /** The address the server is bound to (as given to listen). */
  bindHost: string;
  /** The port it listens on (known after listen). */
  port: () => number;
}

const WILDCARD = new Set(['0.0.0.0', '::', '[::]', '']);
const SAFE_METHODS = new Set(['GET', 'HEAD']);

function splitHost(value: string): { name: string; port: number | null } | null {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  if (!m) return null;
  return { name: m[1]!.toLowerCase(), port: m[2] !== undefined ? Number(m[2]) : null };
}

function bracketed(host: string): string {
  const h = host.toLowerCase();
  return h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
}

/** The host names (without port) this server answers to; null means any (a wildcard bind). */
export function allowedHostNames(bindHost: string): Set<string> | null {
  if (WILDCARD.has(bindHost.replace(/^\[|\]$/g, ''))) return null;
  const names = new Set([bracketed(bindHost)]);
  if (isLoopbackHost(bindHost)) for (const n of ['localhost', '127.0.0.1', '[::1]']) names.add(n);
  return names;
}

/** Why a Host header is refused, or null. */
export function hostProblem(hostHeader: string | undefined, target: GuardTarget): string | null {
  const names = allowedHostNames(target.bindHost);
  if (names === null) return null;
  if (!hostHeader) return 'the request has no Host header';
  const h = splitHost(hostHeader);
  if (!h) return `the Host header '${hostHeader}' is not a host name`;
  const name = h.name.replace(/\.$/, '');
  if (!names.has(name) || (h.port ?? 80) !== target.port()) return `this server answers only to ${[...names].map((n) => `${n}:${target.port()}`).join(', ')}, not to Host '${hostHeader}'`;
  return null;
}

/** Why a request is refused as cross-site, or null. */
export function crossSiteProblem(req: { method: string; headers: Record<string, string | string[] | undefined> }): string | null {
  const header = (name: string): string | undefined => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const method = req.method.toUpperCase();
  const origin = header('origin');
  const host = header('host');
  const site = header('sec-fetch-site');
  // A page served with `Referrer-Policy: no-referrer` (the notification dashboard) makes the browser send
  // `Origin: null` with its own form posts; the browser's `Sec-Fetch-Site: same-origin`, which no page can
  // set, says it is ours. Any other `null` (a sandboxed frame, a file: page) stays foreign.
  const ownNull = origin === 'null' && site === 'same-origin';
  if (origin !== undefined && !ownNull && !SAFE_METHODS.has(method) && origin.toLowerCase() !== `http://${(host ?? '').toLowerCase()}`)
    return `requests from the web page origin '${origin}' are not accepted: ops serve takes state-changing requests only from its own pages and from clients that send no Origin (the CLI, SDKs, curl)`;
  if (site === 'cross-site' || site === 'same-site') {
    const navigation = SAFE_METHODS.has(method) && header('sec-fetch-mode') === 'navigate';
    if (!navigation) return `a ${site} request from a web page is not accepted (only top-level navigation is)`;
  }
  return null;
}

function refuse(reply: FastifyReply, status: 421 | 403, message: string, code: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ message, error_code: code, details: null }));
}

/** The onRequest hook for the root of the server. */
export function requestGuard(target: GuardTarget) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const hostIssue = hostProblem(req.headers.host, target);
    if (hostIssue) return refuse(reply, 421, `Misdirected request: ${hostIssue}.`, 'MisdirectedRequest');
    const siteIssue = crossSiteProblem(req);
    if (siteIssue) return refuse(reply, 403, `Forbidden: ${siteIssue}.`, 'CrossSiteRequestRefused');
  };
}

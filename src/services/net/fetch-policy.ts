/**
 * The outbound-fetch policy of `ops serve` (`--fetch-policy public|any`): which addresses the server's own
 * HTTP requests may reach — link metadata, the link checker, webhook delivery and pipeline `url_input`.
 *
 * Rules:
 * - `public` refuses loopback, private (10/8, 172.16/12, 192.168/16, 100.64/10), unspecified (0.0.0.0,
 *   ::), unique-local (fc00::/7), site-local, multicast and reserved addresses, and IPv4 embedded in IPv6
 *   (::ffff:a.b.c.d, 64:ff9b::/96) is judged as the IPv4 address it carries.
 * - Link-local (169.254/16, fe80::/10) and cloud metadata addresses (169.254.169.254, fd00:ec2::254,
 *   100.100.100.200, metadata.google.internal) are refused under every policy.
 * - The check is made on the address a socket is about to connect to: IP literals in the connector, host
 *   names in the connector's DNS lookup (every resolved address must pass), so there is no window between
 *   the check and the connect (no DNS rebinding), and every redirect hop goes through the same dispatcher.
 * - Numeric host spellings (0x7f000001, 2130706433, 0177.0.0.1) are normalised by the WHATWG URL parser
 *   before they reach here (`new URL('http://0x7f000001/').hostname === '127.0.0.1'`).
 *
 * Pure of the server: everything comes in as arguments, so it works in a pipeline's worker thread too.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import type { Agent, buildConnector, Dispatcher } from 'undici';

let undiciModule: typeof import('undici') | undefined;
/**
 * undici, loaded on first use: a pipeline's worker loads this module for its sources, and one without an
 * http source then never pays for undici (0.12 s of CPU to load, a third of the worker's start).
 */
export function undici(): typeof import('undici') {
  return (undiciModule ??= createRequire(import.meta.url)('undici') as typeof import('undici'));
}

export type FetchPolicy = 'public' | 'any';
export const FETCH_POLICIES: readonly FetchPolicy[] = ['public', 'any'];

/** Raised (as a connect error) when the policy refuses an address; `code` is ERR_FETCH_REFUSED. */
export class FetchRefusedError extends Error {
  readonly code = 'ERR_FETCH_REFUSED';
  constructor(
    readonly host: string,
    readonly reason: string,
    readonly policy: FetchPolicy,
  ) {
    super(`refused by the fetch policy '${policy}': ${host} is ${reason}`);
  }
}

/** Host names that are cloud metadata services whatever they resolve to. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);
const METADATA_V4 = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200']);
const METADATA_V6 = new Set(['fd00:ec2:0:0:0:0:0:254']);

/** True for names and addresses of the loopback interface (as a bind address or a Host header). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const v = classifyAddress(h);
  return v?.kind === 'loopback';
}

/** The policy in force: the flag's value, else `any` on a loopback bind and `public` otherwise. */
export function effectiveFetchPolicy(flag: unknown, bindHost: string): FetchPolicy {
  if (flag === 'public' || flag === 'any') return flag;
  return isLoopbackHost(bindHost) ? 'any' : 'public';
}

function v4Bytes(ip: string): number[] {
  return ip.split('.').map(Number);
}

/** The 8 groups of an IPv6 address (zone id dropped, embedded dotted IPv4 expanded). */
function v6Groups(ip: string): number[] {
  let s = ip.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const b = v4Bytes(dotted[1]!);
    s = s.slice(0, dotted.index) + `${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const h = head ? head.split(':').filter((x) => x !== '') : [];
  const t = tail !== undefined ? tail.split(':').filter((x) => x !== '') : [];
  const fill = tail !== undefined ? 8 - h.length - t.length : 0;
  return [...h, ...Array(Math.max(0, fill)).fill('0'), ...t].map((g) => parseInt(g, 16));
}

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'unique-local' | 'reserved';

/** Classifies an IP address (null when `ip` is not an IP address). */
export function classifyAddress(ip: string): { kind: AddressKind; address: string } | null {
  const bare = ip.replace(/^\[|\]$/g, '');
  const family = isIP(bare.replace(/%.*$/, ''));
  if (family === 4) return { kind: classifyV4(bare), address: bare };
  if (family !== 6) return null;
  const g = v6Groups(bare);
  const norm = g.map((x) => x.toString(16)).join(':');
  // IPv4 carried in IPv6: mapped (::ffff:0:0/96), compatible (::a.b.c.d), NAT64 (64:ff9b::/96)
  const embedded =
    (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) || (g.slice(0, 6).every((x) => x === 0) && g[6]! !== 0) || (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0));
  if (embedded) {
    const v4 = `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
    const k = classifyV4(v4);
    return { kind: k === 'public' && g[0] === 0x64 ? 'public' : k, address: bare };
  }
  if (METADATA_V6.has(norm)) return { kind: 'metadata', address: bare };
  if (g.every((x) => x === 0)) return { kind: 'unspecified', address: bare };
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return { kind: 'loopback', address: bare };
  if ((g[0]! & 0xffc0) === 0xfe80) return { kind: 'link-local', address: bare };
  if ((g[0]! & 0xfe00) === 0xfc00) return { kind: 'unique-local', address: bare };
  if ((g[0]! & 0xffc0) === 0xfec0) return { kind: 'private', address: bare }; // site-local (deprecated)
  if ((g[0]! & 0xff00) === 0xff00) return { kind: 'reserved', address: bare }; // multicast
  if (g[0] === 0x2001 && g[1] === 0xdb8) return { kind: 'reserved', address: bare }; // documentation
  return { kind: 'public', address: bare };
}

function classifyV4(ip: string): AddressKind {
  if (METADATA_V4.has(ip)) return 'metadata';
  const [a, b, c] = v4Bytes(ip) as [number, number, number, number];
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // carrier-grade NAT
  if (a === 192 && b === 0 && c === 0) return 'reserved'; // IETF protocol assignments
  if (a === 198 && (b === 18 || b === 19)) return 'reserved'; // benchmarking
  if (a >= 224) return 'reserved'; // multicast, reserved, broadcast
  return 'public';
}

const DESCRIBE: Record<AddressKind, string> = {
  public: 'a public address',
  loopback: 'a loopback address',
  private: 'a private-network address',
  'link-local': 'a link-local address (refused under every policy)',
  metadata: 'a cloud metadata address (refused under every policy)',
  unspecified: 'an unspecified address',
  'unique-local': 'a unique-local address',
  reserved: 'a reserved or multicast address',
};

/** Why the policy refuses this host name or IP address, or null when it may be reached. */
export function refusal(host: string, policy: FetchPolicy): string | null {
  const h = host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (METADATA_NAMES.has(h)) return 'a cloud metadata host (refused under every policy)';
  const c = classifyAddress(h);
  if (!c) return null; // a name: judged on what it resolves to
  if (c.kind === 'link-local' || c.kind === 'metadata') return DESCRIBE[c.kind];
  if (policy === 'any' || c.kind === 'public') return null;
  return DESCRIBE[c.kind];
}

/** Throws FetchRefusedError when the policy refuses `host` (name or IP). */
export function assertAllowed(host: string, policy: FetchPolicy): void {
  const why = refusal(host, policy);
  if (why) throw new FetchRefusedError(host, why, policy);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A dns.lookup that refuses a name when any address it resolves to is refused. */
export function checkingLookup(policy: FetchPolicy) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    const name = refusal(hostname, policy);
    if (name) return callback(new FetchRefusedError(hostname, name, policy), []);
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      for (const a of addresses) {
        const why = refusal(a.address, policy);
        if (why) return callback(new FetchRefusedError(`${hostname} (${a.address})`, why, policy), []);
      }
      if ((options as LookupAllOptions).all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

export interface PolicyAgentOptions extends Agent.Options {
  /** Follow up to this many redirects (each hop checked); 0 or absent: redirects are answers. */
  maxRedirections?: number;
}

/**
 * An undici dispatcher that refuses, at connect time, every address the policy refuses: IP literals
 * before the socket is made, host names in the socket's own DNS lookup. Redirects (when asked for) are
 * followed through the same checks.
 */
export function policyDispatcher(policy: FetchPolicy, opts: PolicyAgentOptions = {}): Dispatcher {
  const { maxRedirections, ...agentOpts } = opts;
  const { Agent, buildConnector, interceptors } = undici();
  const base = buildConnector({ lookup: checkingLookup(policy) } as buildConnector.BuildOptions);
  const connect: buildConnector.connector = (o, callback) => {
    const host = String(o.hostname).replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const why = refusal(host, policy);
      if (why) {
        callback(new FetchRefusedError(host, why, policy), null);
        return undefined as never;
      }
    }
    return base(o, callback);
  };
  const agent = new Agent({ ...agentOpts, connect });
  return maxRedirections ? agent.compose(interceptors.redirect({ maxRedirections })) : agent;
}

/** The refusal behind a failed request (undici may wrap it), or null. */
export function refusedCause(err: unknown): FetchRefusedError | null {
  let e = err as { cause?: unknown } | undefined;
  for (let i = 0; i < 4 && e; i++) {
    if (e instanceof FetchRefusedError) return e;
    e = e.cause as { cause?: unknown } | undefined;
  }
  return null;
}

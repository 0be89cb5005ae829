/** The request guard's rules, as pure functions: which Host names each bind accepts, which browser requests are cross-site. */
import { describe, expect, it } from 'vitest';
import { allowedHostNames, crossSiteProblem, hostProblem } from '../../src/services/request-guard.js';

const at = (bindHost: string, port = 8700) => ({ bindHost, port: () => port });

describe('Host', () => {
  it('a loopback bind answers to its address and the loopback names, on its port only', () => {
    for (const h of ['127.0.0.1:8700', 'localhost:8700', '[::1]:8700', 'Localhost:8700', 'localhost.:8700']) expect(hostProblem(h, at('127.0.0.1')), h).toBeNull();
    for (const h of ['127.0.0.1', '127.0.0.1:8701', 'evil.example:8700', 'localhost.evil.example:8700', '127.0.0.2:8700', 'a:b:c', undefined])
      expect(hostProblem(h, at('127.0.0.1')), String(h)).not.toBeNull();
    expect(hostProblem('127.0.0.1:80', at('127.0.0.1', 80))).toBeNull();
    expect(hostProblem('127.0.0.1', at('127.0.0.1', 80))).toBeNull();
    expect(hostProblem('[::1]:8700', at('::1'))).toBeNull();
    expect(hostProblem('localhost:8700', at('localhost'))).toBeNull();
  });

  it('a specific address answers to that address only; a wildcard bind to any name', () => {
    expect(hostProblem('192.168.1.10:8700', at('192.168.1.10'))).toBeNull();
    expect(hostProblem('localhost:8700', at('192.168.1.10'))).toMatch(/answers only to 192\.168\.1\.10:8700/);
    expect(allowedHostNames('0.0.0.0')).toBeNull();
    expect(allowedHostNames('::')).toBeNull();
    expect(hostProblem('anything.example:1', at('0.0.0.0'))).toBeNull();
  });
});

describe('cross-site', () => {
  const req = (method: string, headers: Record<string, string>) => crossSiteProblem({ method, headers: { host: '127.0.0.1:8700', ...headers } });
  it('clients without browser headers pass, whatever the method', () => {
    for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) expect(req(m, {})).toBeNull();
  });
  it('a foreign or null Origin is refused on state-changing methods; the own origin passes', () => {
    for (const m of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      expect(req(m, { origin: 'http://127.0.0.1:9999' }), m).toMatch(/not accepted/);
      expect(req(m, { origin: 'null' }), m).toMatch(/not accepted/);
      expect(req(m, { origin: 'http://127.0.0.1:8700', 'sec-fetch-site': 'same-origin' }), m).toBeNull();
    }
    expect(req('GET', { origin: 'http://127.0.0.1:9999' })).toBeNull();
  });
  it('Origin: null passes only when the browser marks the request same-origin (a no-referrer page posting its own form)', () => {
    expect(req('POST', { origin: 'null', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' })).toBeNull();
    expect(req('POST', { origin: 'null', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })).toMatch(/not accepted/);
    expect(req('POST', { origin: 'null', 'sec-fetch-site': 'same-site' })).toMatch(/not accepted/);
    expect(req('POST', { origin: 'null', 'sec-fetch-site': 'none' })).toMatch(/not accepted/);
  });
  it('cross-site and same-site browser requests are refused unless they are top-level navigations', () => {
    expect(req('GET', { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors' })).toMatch(/same-site request/);
    expect(req('GET', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' })).toMatch(/cross-site request/);
    expect(req('GET', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })).toBeNull();
    expect(req('POST', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })).toMatch(/cross-site request/);
    expect(req('GET', { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' })).toBeNull();
  });
});

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: records every request (headers, raw body,
 * arrival time) and answers as a behaviour function says (status, delay, or hanging).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Date.now() when the body was complete */
  at: number;
}

export type Behaviour = (req: RecordedRequest, index: number) => { status?: number; delayMs?: number; body?: string; /** answer only once this settles */ hold?: Promise<unknown> } | void;

export interface TestReceiver {
  url: string;
  requests: RecordedRequest[];
  setBehaviour(b: Behaviour): void;
  /** Resolves once at least n requests arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTestReceiver(behaviour: Behaviour = () => ({ status: 200 }), path = '/hook'): Promise<TestReceiver> {
  const requests: RecordedRequest[] = [];
  let current = behaviour;
  const waiters: { n: number; resolve: () => void }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: Date.now(),
      };
      const index = requests.length;
      requests.push(rec);
      for (const w of [...waiters]) {
        if (requests.length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
      const answer = current(rec, index) ?? {};
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain' });
        res.end(answer.body ?? 'ok');
      };
      if (answer.hold) {
        void answer.hold.finally(send);
      } else if (answer.delayMs) {
        const t = setTimeout(() => {
          timers.delete(t);
          send();
        }, answer.delayMs);
        timers.add(t);
      } else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    requests,
    setBehaviour(b) {
      current = b;
    },
    waitFor(n, timeoutMs = 20_000) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`expected ${n} requests, got ${requests.length}`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(t);
            resolve();
          },
        });
      });
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Polls until fn returns a truthy value (or throws after timeoutMs). */
export async function eventually<T>(fn: () => T | Promise<T>, timeoutMs = 20_000, everyMs = 25): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`condition not met in ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * A real forwarding HTTP proxy on 127.0.0.1 that records every request passing through it (method, path,
 * status). Point a client at it with HTTP_PROXY to count the requests a command makes: absolute-form
 * requests are forwarded as they are, bodies streamed both ways, nothing changed; each request's headers are kept.
 */
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';

export interface SeenRequest {
  method: string;
  path: string;
  status: number;
  /** The request's headers as the client sent them. */
  headers: IncomingHttpHeaders;
}

export interface CountingProxy {
  url: string;
  requests: SeenRequest[];
  /** Forget what was seen so far. */
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(): Promise<CountingProxy> {
  const requests: SeenRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute-form requests only');
      return;
    }
    const seen: SeenRequest = { method: req.method ?? 'GET', path: target.pathname + target.search, status: 0, headers: req.headers };
    requests.push(seen);
    const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
      seen.status = answer.statusCode ?? 0;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (err) => {
      seen.status = 502;
      if (!res.headersSent) res.writeHead(502);
      res.end(String(err));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reset: () => void requests.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

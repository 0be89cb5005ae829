/**
 * How long `ops serve` waits for clients, and how it lets go of them when it closes: the server's
 * timeouts (bounding slowloris-style clients that trickle a request head or body) and a prompt close
 * (no connection can hold `server.close()` open).
 *
 * Rules:
 *  - A request head must arrive whole within HEADERS_TIMEOUT_MS of its first byte (of the connection,
 *    for its first request); a whole request (head and body) within REQUEST_TIMEOUT_MS. Past either,
 *    Node answers 408 and closes the connection. Responses are not timed: a watch stream may stay
 *    open for days. Node checks the deadlines every CHECK_INTERVAL_MS, so a deadline is met within
 *    that much more.
 *  - An idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS.
 *  - Closing: Node's own close waits for every connection that is "active", and it counts a
 *    connection that has sent nothing yet (an HTTP client's spare pooled connection, a browser's
 *    preconnect) or only part of a request head as active, while it stops checking the deadlines
 *    above. Such a connection held `server.close()` (and a SIGTERM'd `ops serve`) open for as long as
 *    the client kept it. So once closing starts, every connection with no response being written is
 *    destroyed at once, and again every SWEEP_INTERVAL_MS as responses end (services end their watch
 *    streams in their own preClose hooks); responses still being written get CLOSE_GRACE_MS to
 *    finish, then their connections are destroyed too.
 *  - Open connections are capped (capConnections; limits.ts DEFAULT_CAPS.connections): a connection
 *    past the cap is answered at once with a 503 that says why (`TooManyConnections`, Retry-After) and
 *    closed; it never reaches Node's HTTP parser, so nothing it sends is read or carried out. The
 *    connections already open are served as before.
 *  - The values are documented in docs/security.md ("Slow and idle clients"); a change here changes
 *    them there too.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 10 * 60_000;
export const CHECK_INTERVAL_MS = 1_000;
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;
export const CLOSE_GRACE_MS = 5_000;
const SWEEP_INTERVAL_MS = 25;

export interface ConnectionTimeouts {
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  checkIntervalMs?: number;
  keepAliveTimeoutMs?: number;
}

/** Fastify options that set the server's timeouts (tests pass smaller values). */
export function serverTimeoutOptions(t: ConnectionTimeouts = {}): Pick<FastifyServerOptions, 'requestTimeout' | 'keepAliveTimeout'> & {
  http: { headersTimeout: number; connectionsCheckingInterval: number };
} {
  return {
    requestTimeout: t.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    keepAliveTimeout: t.keepAliveTimeoutMs ?? KEEP_ALIVE_TIMEOUT_MS,
    http: { headersTimeout: t.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, connectionsCheckingInterval: t.checkIntervalMs ?? CHECK_INTERVAL_MS },
  };
}

/** The responses each connection is writing (or has queued), from the server's 'request' events. */
class ConnectionTracker {
  private readonly sockets = new Map<Socket, Set<ServerResponse>>();

  constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
      this.sockets.set(socket, new Set());
      socket.once('close', () => this.sockets.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const responses = this.sockets.get(req.socket);
      if (!responses) return;
      responses.add(res);
      res.once('close', () => responses.delete(res));
    });
  }

  /** Destroys every connection that is not writing a response; with `all`, every connection. */
  sweep(all: boolean): void {
    for (const [socket, responses] of this.sockets) {
      let busy = false;
      for (const res of responses) if (!res.writableEnded && !res.destroyed) busy = true;
      if (all || !busy) socket.destroy();
    }
  }

  get size(): number {
    return this.sockets.size;
  }
}

/**
 * Makes `app.close()` return promptly whatever the clients do (see the rules above). Register it on
 * the root instance before the services, so that its preClose hook runs first.
 */
export function closePromptly(app: FastifyInstance, graceMs = CLOSE_GRACE_MS): void {
  const tracker = new ConnectionTracker(app.server);
  app.addHook('preClose', async () => {
    const deadline = Date.now() + graceMs;
    tracker.sweep(false);
    const timer = setInterval(() => {
      tracker.sweep(Date.now() >= deadline);
      // done once the server stopped accepting and every connection is gone
      if (!app.server.listening && tracker.size === 0) clearInterval(timer);
    }, SWEEP_INTERVAL_MS);
    timer.unref();
  });
}

/** The answer written on a connection past the cap, before it is closed. */
function refusal(cap: number): string {
  const body = JSON.stringify({
    message: `Too many open connections: this server takes at most ${cap} at once (ops serve --max-connections). Close idle connections or try again later.`,
    error_code: 'TooManyConnections',
    details: { max_connections: cap },
  });
  return (
    'HTTP/1.1 503 Service Unavailable\r\n' +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Retry-After: 1\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n' +
    body
  );
}

/** How long a refused connection may take to read its 503 before it is destroyed. */
const REFUSED_LINGER_MS = 2_000;

/**
 * Caps the open connections of `server` at `cap` (see the rules above). A connection past the cap is
 * kept from Node's HTTP handling altogether (its 'connection' event is not passed on, so no parser is
 * attached and nothing it sends is read or run); it only gets the 503 and is closed.
 */
export function capConnections(server: Server, cap: number): void {
  let open = 0;
  const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event !== 'connection') return emit(event, ...args);
    const socket = args[0] as Socket;
    if (open >= cap) {
      socket.on('error', () => {});
      socket.end(refusal(cap));
      setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
      return true;
    }
    open++;
    socket.once('close', () => open--);
    return emit(event, ...args);
  }) as Server['emit'];
}

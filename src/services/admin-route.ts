/**
 * The admin route of `ops serve`: `POST /admin/<service>/<action>` with a JSON object of arguments, which
 * `ops serve user|token|key` call while a server owns the data dir, so that the running services act
 * (and publish their events) at once.
 *
 * Rules:
 * - Authenticated by `Authorization: Bearer <secret>`, the secret of this start that only the user who runs
 *   the server can read (services/server-file.ts, 0600 in the 0700 data dir); compared in constant time.
 *   Without it (or with another) 401; nothing about the route is revealed before that.
 * - Only from this machine: the peer must be a loopback address or the server's own address (a bind on a
 *   LAN address reached from the same machine), else 403, whatever the secret. The root request guard
 *   (Host, Origin, Sec-Fetch-*) runs before, so no web page can drive it either.
 * - Answers 200 `{result}`; an action's AdminError is `{message, error_code: "AdminRefused", exit_code}`
 *   with 422 (bad input or an unknown action, exit code 2) or 409 (a failure, exit code 1); a service without
 *   admin actions 404. A full disk is 507 and a damaged store 503 (store-guard.ts), exit code 1.
 * - Wrong secrets are throttled per client address (auth-throttle.ts): 429 with Retry-After.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AdminError, pickAction } from './admin-actions.js';
import { isLoopbackHost } from './net/fetch-policy.js';
import type { AdminActions } from './types.js';
import { AuthThrottle } from './auth-throttle.js';
import { isDamagedError, isDiskFullError } from './store-guard.js';
import { bearerCredential } from './kit/credentials.js';

/** Arguments of an admin call are a few short strings: 64 KiB is plenty. */
const ADMIN_BODY_LIMIT = 64 * 1024;

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** The peer is this machine: a loopback address, or the very address it connected to. */
export function fromThisMachine(remote: string | undefined, local: string | undefined): boolean {
  if (!remote) return false;
  const r = remote.replace(/^::ffff:/i, '');
  return isLoopbackHost(r) || (local !== undefined && r === local.replace(/^::ffff:/i, ''));
}

function refuse(reply: FastifyReply, status: number, message: string, code: string, exitCode?: number): FastifyReply {
  return reply.code(status).send({ message, error_code: code, ...(exitCode === undefined ? {} : { exit_code: exitCode }) });
}

export function registerAdminRoute(app: FastifyInstance, secret: string, actionsOf: (service: string) => AdminActions | undefined, throttle = new AuthThrottle()): void {
  const expected = digest(secret);
  app.post<{ Params: { service: string; action: string }; Body: unknown }>('/admin/:service/:action', { bodyLimit: ADMIN_BODY_LIMIT }, async (req, reply) => {
    if (!fromThisMachine(req.socket.remoteAddress, req.socket.localAddress)) return refuse(reply, 403, 'the admin route answers only to this machine', 'AdminRefused');
    const given = bearerCredential(req.headers.authorization);
    const wait = throttle.check(req.ip, given);
    if (wait !== null) return refuse(reply.header('retry-after', String(wait)), 429, `too many wrong secrets from this client: try again in ${wait} s`, 'TooManyFailedAuthentications');
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      if (given !== undefined) throttle.failed(req.ip, given);
      return refuse(reply, 401, 'the admin route needs the secret of the running server (in its data dir)', 'Unauthorized');
    }
    throttle.succeeded(given);
    const { service, action } = req.params;
    const actions = actionsOf(service);
    if (!actions) return refuse(reply, 404, `no service "${service}" with admin actions`, 'NotFound');
    const args = req.body ?? {};
    if (typeof args !== 'object' || Array.isArray(args)) return refuse(reply, 422, 'the arguments must be a JSON object', 'AdminRefused', 2);
    try {
      const result = await pickAction(actions, service, action)(args as Record<string, unknown>);
      return reply.send({ result });
    } catch (err) {
      if (err instanceof AdminError) return refuse(reply, err.exitCode === 2 ? 422 : 409, err.message, 'AdminRefused', err.exitCode);
      if (isDiskFullError(err)) return refuse(reply, 507, `The disk is full: the ${service} store cannot take this change; nothing of it was saved.`, 'InsufficientStorage', 1);
      if (isDamagedError(err)) return refuse(reply, 503, `The ${service} store is damaged: ${(err as Error).message}`, 'StoreDamaged', 1);
      throw err;
    }
  });
}

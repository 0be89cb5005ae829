/**
 * The bookmark API's answer to a path no route serves, as Laravel's: 405 with `Allow` (and LinkAce's message)
 * when the path is a route's with another method, else 404 `The route ... could not be found.`. `trackRoutes`
 * remembers the API's routes as they are registered (call it before them); `fallbackRoute` answers the rest.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type KnownRoutes = Map<string, { pattern: RegExp; methods: Set<string> }>;

export function trackRoutes(app: FastifyInstance): KnownRoutes {
  const routes: KnownRoutes = new Map();
  app.addHook('onRoute', (r) => {
    if (r.url === '/api/*' || !r.url.startsWith('/api/')) return;
    let entry = routes.get(r.url);
    if (!entry) {
      const source = r.url
        .split('/')
        .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      routes.set(r.url, (entry = { pattern: new RegExp(`^${source}/?$`), methods: new Set() }));
    }
    for (const m of Array.isArray(r.method) ? r.method : [r.method]) if (m !== 'HEAD') entry.methods.add(m);
  });
  return routes;
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function fallbackRoute(app: FastifyInstance, known: KnownRoutes): void {
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const path = (req.raw.url ?? '').split('?')[0]!;
    const allowed = new Set<string>();
    for (const r of known.values()) if (r.pattern.test(path)) for (const m of r.methods) allowed.add(m);
    const route = path.replace(/^\//, '');
    if (allowed.size) {
      if (allowed.has('GET')) allowed.add('HEAD');
      const list = METHOD_ORDER.filter((m) => allowed.has(m));
      return reply
        .code(405)
        .header('allow', list.join(', '))
        .send({ message: `The ${req.method} method is not supported for route ${route}. Supported methods: ${list.join(', ')}.` });
    }
    return reply.code(404).send({ message: `The route ${route} could not be found.` });
  };
  app.route({ method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/api/*', handler, schema: { hide: true } as never });
}

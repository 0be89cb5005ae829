/** Placeholder: the notifications service is not built yet. Replaced by its own issue. */
import type { ServiceModule } from '../types.js';

const service: ServiceModule = {
  name: 'notifications',
  prefix: '/notify',
  async register(app) {
    app.all('/*', async (_req, reply) => reply.code(501).send({ message: 'The notifications service is not implemented yet.' }));
    return { health: () => ({ status: 'down' as const, reason: 'not implemented' }), close: () => {} };
  },
};
export default service;

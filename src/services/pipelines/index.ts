/** Placeholder: the pipelines service is not built yet. Replaced by its own issue. */
import type { ServiceModule } from '../types.js';

const service: ServiceModule = {
  name: 'pipelines',
  prefix: '/v0',
  async register(app) {
    app.all('/*', async (_req, reply) => reply.code(501).send({ message: 'The pipelines service is not implemented yet.' }));
    return { health: () => ({ status: 'down' as const, reason: 'not implemented' }), close: () => {} };
  },
};
export default service;

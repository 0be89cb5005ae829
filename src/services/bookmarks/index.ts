/** Placeholder: the bookmarks service is not built yet. Replaced by its own issue. */
import type { ServiceModule } from '../types.js';

const service: ServiceModule = {
  name: 'bookmarks',
  prefix: '',
  async register(app) {
    app.all('/api/*', async (_req, reply) => reply.code(501).send({ message: 'The bookmarks service is not implemented yet.' }));
    return { health: () => ({ status: 'down' as const, reason: 'not implemented' }), close: () => {} };
  },
};
export default service;

/** All routes of the bookmark API. */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.js';
import { linkRoutes } from './v2/links.js';
import { collectionRoutes } from './v2/collections.js';
import { noteRoutes } from './v2/notes.js';
import { searchRoutes } from './v2/search.js';
import { bulkRoutes } from './v2/bulk.js';
import { trashRoutes } from './v2/trash.js';

export function registerRoutes(app: FastifyInstance, deps: Deps): void {
  linkRoutes(app, deps);
  collectionRoutes(app, deps, 'lists');
  collectionRoutes(app, deps, 'tags');
  noteRoutes(app, deps);
  searchRoutes(app, deps);
  bulkRoutes(app, deps);
  trashRoutes(app, deps);
}

/** All routes of the bookmark API. */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.js';
import { linkRoutes } from './v2/links.js';
import { collectionRoutes } from './v2/collections.js';
import { noteRoutes } from './v2/notes.js';
import { collectionSearchRoute, searchRoutes } from './v2/search.js';
import { bulkRoutes } from './v2/bulk.js';
import { trashRoutes } from './v2/trash.js';
import { v1LinkRoutes } from './v1/links.js';
import { v1CollectionRoutes } from './v1/collections.js';
import { v1ImportExportRoutes } from './v1/import-export.js';
import { v1NoteRoutes } from './v1/notes.js';

export function registerRoutes(app: FastifyInstance, deps: Deps): void {
  linkRoutes(app, deps);
  collectionRoutes(app, deps, 'lists');
  collectionRoutes(app, deps, 'tags');
  noteRoutes(app, deps);
  searchRoutes(app, deps);
  bulkRoutes(app, deps);
  trashRoutes(app, deps);
  v1LinkRoutes(app, deps);
  v1CollectionRoutes(app, deps, 'lists');
  v1CollectionRoutes(app, deps, 'tags');
  v1NoteRoutes(app, deps);
  collectionSearchRoute(app, deps, 'v1', 'tags');
  collectionSearchRoute(app, deps, 'v1', 'lists');
  trashRoutes(app, deps, 'v1');
  v1ImportExportRoutes(app, deps);
}

/** What the route handlers and actions share: the database, the event bus and the service settings. */
import type { EventBus } from '../events.js';
import type { DB } from './store/db.js';
import type { PageMeta } from './metadata.js';
import type { LinkChecker } from './checker.js';

export interface Deps {
  db: DB;
  events: EventBus;
  guestAccess: boolean;
  /** Fetch title/description of new links from their pages. */
  fetchMetadata: boolean;
  /** Fetches page metadata; null when the page cannot be fetched. */
  metadata(url: string): Promise<PageMeta | null>;
  checker: LinkChecker;
  /** Runs a write in the next group commit (see store/batch.ts). */
  write<T>(fn: () => T): Promise<T>;
}

/** Demo content for `ops serve --demo`: a few links, lists, tags and a note for the admin, without touching the network. */
import type { Deps } from './deps.js';
import type { Caller } from './access.js';
import { q } from './store/db.js';
import { storeLink } from './actions/links.js';
import { insertCollection } from './store/collections.js';
import { insertNote } from './store/notes.js';

const LINKS = [
  { url: 'https://www.linkace.org/', title: 'LinkAce', description: 'A self-hosted bookmark archive; the API this service follows.', tags: ['bookmarks', 'reference'], lists: ['Tools'], visibility: 1 },
  { url: 'https://nodejs.org/docs/latest/api/', title: 'Node.js documentation', description: 'API reference of the Node.js runtime.', tags: ['docs', 'javascript'], lists: ['Reading list'], visibility: 1 },
  { url: 'https://developer.mozilla.org/', title: 'MDN Web Docs', description: 'Resources for developers, by developers.', tags: ['docs', 'reference'], lists: ['Reading list'], visibility: 2 },
  { url: 'https://www.sqlite.org/docs.html', title: 'SQLite Documentation', description: null, tags: ['docs', 'databases'], lists: [], visibility: 2 },
  { url: 'https://fastify.dev/', title: 'Fastify', description: 'Fast and low overhead web framework for Node.js.', tags: ['javascript'], lists: ['Tools'], visibility: 3 },
  { url: 'https://news.ycombinator.com/', title: 'Hacker News', description: null, tags: ['news'], lists: [], visibility: 3 },
];

/** Adds the demo content for this user when there are no links yet; returns how many links it added. */
export async function seedDemo(deps: Deps, userId: number): Promise<number> {
  const existing = q(deps.db, 'SELECT count(*) FROM links').pluck().get() as number;
  if (existing > 0) return 0;
  const caller: Caller = { kind: 'user', userId, tokenId: 0 };
  deps.db.transaction(() => {
    insertCollection(deps.db, 'lists', { user_id: userId, name: 'Reading list', description: 'To read this week', visibility: 2 });
    insertCollection(deps.db, 'lists', { user_id: userId, name: 'Tools', description: null, visibility: 1 });
  })();
  let first = 0;
  for (const l of LINKS) {
    const link = await storeLink(
      deps,
      caller,
      { url: l.url, title: l.title, description: l.description, visibility: l.visibility, tags: l.tags.map((name) => ({ name })), lists: l.lists.map((name) => ({ name })) },
      { noMetadata: true, events: false },
    );
    first ||= link.id;
  }
  insertNote(deps.db, { user_id: userId, link_id: first, note: 'Try `ops bm links list` and `ops bm search linkace`.', visibility: 2 });
  return LINKS.length;
}

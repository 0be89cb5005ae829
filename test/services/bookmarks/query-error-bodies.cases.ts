/**
 * The requests of query-error-bodies.test.ts: bad (and borderline) queries of the bookmark routes that read their
 * query themselves before issue 35 item 2 moved them onto the route kit. `{id}` is a link of user A, `{other}` a
 * link of user B.
 */
export type Who = 'A' | 'B' | 'S' | null;
export type QueryCase = [name: string, who: Who, method: 'GET' | 'POST', url: string];

const long = 'q'.repeat(2049);

export const QUERY_CASES: QueryCase[] = [
  // GET /api/v2/search/links
  ['v2 search: no criterion', 'A', 'GET', '/api/v2/search/links'],
  ['v2 search: blank criteria', 'A', 'GET', '/api/v2/search/links?query=%20&only_lists=&only_tags=,'],
  ['v2 search: per_page not a number', 'A', 'GET', '/api/v2/search/links?query=x&per_page=abc'],
  ['v2 search: per_page below -1', 'A', 'GET', '/api/v2/search/links?query=x&per_page=-5'],
  ['v2 search: per_page too long a number', 'A', 'GET', '/api/v2/search/links?query=x&per_page=1234567890123456'],
  ['v2 search: query too long', 'A', 'GET', `/api/v2/search/links?query=${long}`],
  ['v2 search: query repeated', 'A', 'GET', '/api/v2/search/links?query=a&query=b'],
  ['v2 search: bad visibility', 'A', 'GET', '/api/v2/search/links?query=x&visibility=9'],
  ['v2 search: visibility not a number', 'A', 'GET', '/api/v2/search/links?query=x&visibility=abc'],
  ['v2 search: bad only_lists', 'A', 'GET', '/api/v2/search/links?only_lists=x'],
  ['v2 search: bad only_tags beside good only_lists', 'A', 'GET', '/api/v2/search/links?only_tags=1,a&only_lists=2'],
  ['v2 search: bad only_lists[]', 'A', 'GET', '/api/v2/search/links?only_lists[]=1&only_lists[]=x'],
  ['v2 search: negative id', 'A', 'GET', '/api/v2/search/links?only_tags=-1'],
  ['v2 search: bad order_by', 'A', 'GET', '/api/v2/search/links?query=x&order_by=up'],
  ['v2 search: bad order_by direction', 'A', 'GET', '/api/v2/search/links?query=x&order_by=title:up'],
  ['v2 search: order_by repeated', 'A', 'GET', '/api/v2/search/links?query=x&order_by=title:asc&order_by=url:asc'],
  ['v2 search: everything wrong', 'A', 'GET', '/api/v2/search/links?query=&only_lists=x&per_page=-5&order_by=up'],
  ['v2 search: all at once', 'A', 'GET', `/api/v2/search/links?per_page=x&query=${long}&visibility=0&only_lists=a&only_tags=b&order_by=c`],
  ['v2 search: flags are never refused', 'A', 'GET', '/api/v2/search/links?broken_only=maybe&search_title=off'],
  ['v2 search: unauthenticated', null, 'GET', '/api/v2/search/links?per_page=x'],
  // GET /api/v2/links/check
  ['v2 check: id 0', 'A', 'GET', '/api/v2/links/check?id=0'],
  ['v2 check: id not a number', 'A', 'GET', '/api/v2/links/check?id=abc'],
  ['v2 check: id a fraction', 'A', 'GET', '/api/v2/links/check?id=1.5'],
  ['v2 check: id repeated', 'A', 'GET', '/api/v2/links/check?id=1&id=2'],
  ['v2 check: an empty url wins over a bad id', 'A', 'GET', '/api/v2/links/check?url=&id=abc'],
  ['v2 check: a url wins over a bad id', 'A', 'GET', '/api/v2/links/check?url=https://taken.example&id=abc'],
  ['v2 check: another user link', 'B', 'GET', '/api/v2/links/check?id={id}'],
  ['v2 check: a missing link', 'A', 'GET', '/api/v2/links/check?id=999999'],
  ['v2 check: a system token without id', 'S', 'GET', '/api/v2/links/check'],
  // GET /api/v1/links
  ['v1 links: bad tags', 'A', 'GET', '/api/v1/links?tags=a'],
  ['v1 links: bad only_tags', 'A', 'GET', '/api/v1/links?only_tags=b'],
  ['v1 links: bad tags and only_tags', 'A', 'GET', '/api/v1/links?tags=a&only_tags=b'],
  ['v1 links: good tags hide a bad only_tags', 'A', 'GET', '/api/v1/links?tags=1&only_tags=b'],
  ['v1 links: bad lists and only_lists', 'A', 'GET', '/api/v1/links?lists=x&only_lists=y'],
  ['v1 links: good lists[] hide a bad only_lists', 'A', 'GET', '/api/v1/links?lists[]=1&only_lists=y'],
  ['v1 links: bad tags[]', 'A', 'GET', '/api/v1/links?tags[]=x'],
  ['v1 links: bad is_private', 'A', 'GET', '/api/v1/links?is_private=maybe'],
  ['v1 links: bad order', 'A', 'GET', '/api/v1/links?order_by=nope&order_dir=up'],
  ['v1 links: search order is not a list order', 'A', 'GET', '/api/v1/links?order_by=title:asc'],
  ['v1 links: query too long', 'A', 'GET', `/api/v1/links?query=${long}`],
  ['v1 links: query repeated', 'A', 'GET', '/api/v1/links?query=a&query=b'],
  ['v1 links: page and per_page are never refused', 'A', 'GET', '/api/v1/links?per_page=abc&page=-1'],
  ['v1 links: all at once', 'A', 'GET', '/api/v1/links?query=a&query=b&tags=x&only_tags=y&lists=z&is_private=2&order_by=w&order_dir=v&per_page=-9'],
  // GET /api/v1/search/links
  ['v1 search: no criterion', 'A', 'GET', '/api/v1/search/links'],
  ['v1 search: bad is_private', 'A', 'GET', '/api/v1/search/links?query=a&is_private=x'],
  ['v1 search: private_only hides a bad is_private', 'A', 'GET', '/api/v1/search/links?query=a&private_only=1&is_private=x'],
  ['v1 search: bad order_by direction', 'A', 'GET', '/api/v1/search/links?query=a&order_by=title:up'],
  ['v1 search: random ignores order_dir', 'A', 'GET', '/api/v1/search/links?query=a&order_by=random&order_dir=up'],
  ['v1 search: bad order_by and order_dir', 'A', 'GET', '/api/v1/search/links?query=a&order_by=nope&order_dir=up'],
  ['v1 search: bad tags', 'A', 'GET', '/api/v1/search/links?query=a&tags=x'],
  ['v1 search: only_tags names hide tags', 'A', 'GET', '/api/v1/search/links?only_tags=nosuch&tags=y'],
  ['v1 search: bad lists', 'A', 'GET', '/api/v1/search/links?lists=1,x'],
  ['v1 search: query too long', 'A', 'GET', `/api/v1/search/links?query=${long}`],
  ['v1 search: all at once', 'A', 'GET', '/api/v1/search/links?query=a&query=b&tags=x&lists=y&is_private=z&order_by=w&order_dir=v'],
  ['v1 search: system token, names', 'S', 'GET', '/api/v1/search/links?only_lists=nosuch'],
  // GET /api/v1/lists, /api/v1/tags
  ['v1 lists: bad order', 'A', 'GET', '/api/v1/lists?order_by=nope&order_dir=up'],
  ['v1 tags: description is not a tag order', 'A', 'GET', '/api/v1/tags?order_by=description'],
  ['v1 tags: order_dir repeated', 'A', 'GET', '/api/v1/tags?order_dir=asc&order_dir=desc'],
  ['v1 lists: empty order is the default', 'A', 'GET', '/api/v1/lists?order_by=&order_dir=&per_page=0'],
  // GET /api/v1/links/{id}/notes
  ['v1 notes: page and per_page are never refused', 'A', 'GET', '/api/v1/links/{id}/notes?per_page=x&page=y'],
  ['v1 notes: missing link first', 'A', 'GET', '/api/v1/links/999999/notes?per_page=x'],
  ['v1 notes: another user link', 'A', 'GET', '/api/v1/links/{other}/notes?per_page=x'],
  // GET /api/v1/export, POST /api/v1/import
  ['v1 export: bad format', 'A', 'GET', '/api/v1/export?format=xml'],
  ['v1 export: format repeated', 'A', 'GET', '/api/v1/export?format=html&format=json'],
  ['v1 export: unauthenticated', null, 'GET', '/api/v1/export?format=xml'],
  ['v1 import: a flag is never refused', 'A', 'POST', '/api/v1/import?dry_run=maybe'],
  // search of tags and lists
  ['v2 tag search: repeated query', 'A', 'GET', '/api/v2/search/tags?query=a&query=b'],
  ['v1 list search: no query', 'A', 'GET', '/api/v1/search/lists'],
];

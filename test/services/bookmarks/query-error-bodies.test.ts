/**
 * The bookmark routes that read their query themselves, answered to the byte (status, content type, body) for
 * bad and borderline queries: recorded before issue 35 item 2 moved their checks onto the route kit
 * (services/kit), and kept since. LinkAce clients read `message` and `errors` (Laravel's 422 shape). A 2xx
 * answer is recorded by its status and content type (its body holds times).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type Fixture } from './helpers.js';
import { QUERY_CASES } from './query-error-bodies.cases.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** What each case answers: status, content type and, for a 4xx, the body's text. */
const EXPECTED: Record<string, { status: number; type: string; text?: string }> = {
  'v2 search: no criterion': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"You must either enter a search query, or select a list, a tag or enable searching for broken links. (and 3 more errors)","errors":{"query":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"only_lists":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"only_tags":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"broken_only":["You must either enter a search query, or select a list, a tag or enable searching for broken links."]}}',
  },
  'v2 search: blank criteria': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"You must either enter a search query, or select a list, a tag or enable searching for broken links. (and 3 more errors)","errors":{"query":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"only_lists":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"only_tags":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"broken_only":["You must either enter a search query, or select a list, a tag or enable searching for broken links."]}}',
  },
  'v2 search: per_page not a number': { status: 422, type: JSON_TYPE, text: '{"message":"The per page must be an integer.","errors":{"per_page":["The per page must be an integer."]}}' },
  'v2 search: per_page below -1': { status: 422, type: JSON_TYPE, text: '{"message":"The per page must be at least -1.","errors":{"per_page":["The per page must be at least -1."]}}' },
  'v2 search: per_page too long a number': { status: 422, type: JSON_TYPE, text: '{"message":"The per page must be an integer.","errors":{"per_page":["The per page must be an integer."]}}' },
  'v2 search: query too long': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The query must not be greater than 2048 characters. (and 4 more errors)","errors":{"query":["The query must not be greater than 2048 characters.","You must either enter a search query, or select a list, a tag or enable searching for broken links."],"only_lists":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"only_tags":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"broken_only":["You must either enter a search query, or select a list, a tag or enable searching for broken links."]}}',
  },
  'v2 search: query repeated': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The query must be a string. (and 4 more errors)","errors":{"query":["The query must be a string.","You must either enter a search query, or select a list, a tag or enable searching for broken links."],"only_lists":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"only_tags":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"broken_only":["You must either enter a search query, or select a list, a tag or enable searching for broken links."]}}',
  },
  'v2 search: bad visibility': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The visibility must be either 1 (public), 2 (internal) or 3 (private).","errors":{"visibility":["The visibility must be either 1 (public), 2 (internal) or 3 (private)."]}}',
  },
  'v2 search: visibility not a number': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The visibility must be either 1 (public), 2 (internal) or 3 (private).","errors":{"visibility":["The visibility must be either 1 (public), 2 (internal) or 3 (private)."]}}',
  },
  'v2 search: bad only_lists': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The only lists must be a comma-separated list of ids. (and 4 more errors)","errors":{"only_lists":["The only lists must be a comma-separated list of ids.","You must either enter a search query, or select a list, a tag or enable searching for broken links."],"query":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"only_tags":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"broken_only":["You must either enter a search query, or select a list, a tag or enable searching for broken links."]}}',
  },
  'v2 search: bad only_tags beside good only_lists': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The only tags must be a comma-separated list of ids.","errors":{"only_tags":["The only tags must be a comma-separated list of ids."]}}',
  },
  'v2 search: bad only_lists[]': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The only lists must be a comma-separated list of ids. (and 4 more errors)","errors":{"only_lists":["The only lists must be a comma-separated list of ids.","You must either enter a search query, or select a list, a tag or enable searching for broken links."],"query":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"only_tags":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"broken_only":["You must either enter a search query, or select a list, a tag or enable searching for broken links."]}}',
  },
  'v2 search: negative id': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The only tags must be a comma-separated list of ids. (and 4 more errors)","errors":{"only_tags":["The only tags must be a comma-separated list of ids.","You must either enter a search query, or select a list, a tag or enable searching for broken links."],"query":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"only_lists":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"broken_only":["You must either enter a search query, or select a list, a tag or enable searching for broken links."]}}',
  },
  'v2 search: bad order_by': { status: 422, type: JSON_TYPE, text: '{"message":"The selected order by is invalid.","errors":{"order_by":["The selected order by is invalid."]}}' },
  'v2 search: bad order_by direction': { status: 422, type: JSON_TYPE, text: '{"message":"The selected order by is invalid.","errors":{"order_by":["The selected order by is invalid."]}}' },
  'v2 search: order_by repeated': { status: 422, type: JSON_TYPE, text: '{"message":"The selected order by is invalid.","errors":{"order_by":["The selected order by is invalid."]}}' },
  'v2 search: everything wrong': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The per page must be at least -1. (and 6 more errors)","errors":{"per_page":["The per page must be at least -1."],"only_lists":["The only lists must be a comma-separated list of ids.","You must either enter a search query, or select a list, a tag or enable searching for broken links."],"order_by":["The selected order by is invalid."],"query":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"only_tags":["You must either enter a search query, or select a list, a tag or enable searching for broken links."],"broken_only":["You must either enter a search query, or select a list, a tag or enable searching for broken links."]}}',
  },
  'v2 search: all at once': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The per page must be an integer. (and 9 more errors)","errors":{"per_page":["The per page must be an integer."],"query":["The query must not be greater than 2048 characters.","You must either enter a search query, or select a list, a tag or enable searching for broken links."],"visibility":["The visibility must be either 1 (public), 2 (internal) or 3 (private)."],"only_lists":["The only lists must be a comma-separated list of ids.","You must either enter a search query, or select a list, a tag or enable searching for broken links."],"only_tags":["The only tags must be a comma-separated list of ids.","You must either enter a search query, or select a list, a tag or enable searching for broken links."],"order_by":["The selected order by is invalid."],"broken_only":["You must either enter a search query, or select a list, a tag or enable searching for broken links."]}}',
  },
  'v2 search: flags are never refused': { status: 200, type: JSON_TYPE },
  'v2 search: unauthenticated': { status: 401, type: JSON_TYPE, text: '{"message":"Unauthenticated."}' },
  'v2 check: id 0': { status: 422, type: JSON_TYPE, text: '{"message":"The id must be at least 1.","errors":{"id":["The id must be at least 1."]}}' },
  'v2 check: id not a number': { status: 422, type: JSON_TYPE, text: '{"message":"The id must be an integer.","errors":{"id":["The id must be an integer."]}}' },
  'v2 check: id a fraction': { status: 422, type: JSON_TYPE, text: '{"message":"The id must be an integer.","errors":{"id":["The id must be an integer."]}}' },
  'v2 check: id repeated': { status: 422, type: JSON_TYPE, text: '{"message":"The id must be an integer.","errors":{"id":["The id must be an integer."]}}' },
  'v2 check: an empty url wins over a bad id': { status: 200, type: JSON_TYPE },
  'v2 check: a url wins over a bad id': { status: 200, type: JSON_TYPE },
  'v2 check: another user link': { status: 403, type: JSON_TYPE, text: '{"message":"This action is unauthorized."}' },
  'v2 check: a missing link': { status: 404, type: JSON_TYPE, text: '{"message":"No query results for model [App\\\\Models\\\\Link] 999999"}' },
  'v2 check: a system token without id': { status: 403, type: JSON_TYPE, text: '{"message":"This action is unauthorized."}' },
  'v1 links: bad tags': { status: 422, type: JSON_TYPE, text: '{"message":"The tags must be a comma-separated list of ids.","errors":{"tags":["The tags must be a comma-separated list of ids."]}}' },
  'v1 links: bad only_tags': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The only tags must be a comma-separated list of ids.","errors":{"only_tags":["The only tags must be a comma-separated list of ids."]}}',
  },
  'v1 links: bad tags and only_tags': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The tags must be a comma-separated list of ids. (and 1 more error)","errors":{"tags":["The tags must be a comma-separated list of ids."],"only_tags":["The only tags must be a comma-separated list of ids."]}}',
  },
  'v1 links: good tags hide a bad only_tags': { status: 200, type: JSON_TYPE },
  'v1 links: bad lists and only_lists': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The lists must be a comma-separated list of ids. (and 1 more error)","errors":{"lists":["The lists must be a comma-separated list of ids."],"only_lists":["The only lists must be a comma-separated list of ids."]}}',
  },
  'v1 links: good lists[] hide a bad only_lists': { status: 200, type: JSON_TYPE },
  'v1 links: bad tags[]': { status: 422, type: JSON_TYPE, text: '{"message":"The tags must be a comma-separated list of ids.","errors":{"tags":["The tags must be a comma-separated list of ids."]}}' },
  'v1 links: bad is_private': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The is private field must be true or false.","errors":{"is_private":["The is private field must be true or false."]}}',
  },
  'v1 links: bad order': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The selected order by is invalid. (and 1 more error)","errors":{"order_by":["The selected order by is invalid."],"order_dir":["The selected order dir is invalid."]}}',
  },
  'v1 links: search order is not a list order': { status: 422, type: JSON_TYPE, text: '{"message":"The selected order by is invalid.","errors":{"order_by":["The selected order by is invalid."]}}' },
  'v1 links: query too long': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The query must not be greater than 2048 characters.","errors":{"query":["The query must not be greater than 2048 characters."]}}',
  },
  'v1 links: query repeated': { status: 422, type: JSON_TYPE, text: '{"message":"The query must be a string.","errors":{"query":["The query must be a string."]}}' },
  'v1 links: page and per_page are never refused': { status: 200, type: JSON_TYPE },
  'v1 links: all at once': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The query must be a string. (and 6 more errors)","errors":{"query":["The query must be a string."],"tags":["The tags must be a comma-separated list of ids."],"only_tags":["The only tags must be a comma-separated list of ids."],"lists":["The lists must be a comma-separated list of ids."],"is_private":["The is private field must be true or false."],"order_by":["The selected order by is invalid."],"order_dir":["The selected order dir is invalid."]}}',
  },
  'v1 search: no criterion': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"You must either enter a search query, or select a list or a tag. (and 3 more errors)","errors":{"query":["You must either enter a search query, or select a list or a tag."],"only_lists":["You must either enter a search query, or select a list or a tag."],"only_tags":["You must either enter a search query, or select a list or a tag."],"broken_only":["You must either enter a search query, or select a list or a tag."]}}',
  },
  'v1 search: bad is_private': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The is private field must be true or false.","errors":{"is_private":["The is private field must be true or false."]}}',
  },
  'v1 search: private_only hides a bad is_private': { status: 200, type: JSON_TYPE },
  'v1 search: bad order_by direction': { status: 422, type: JSON_TYPE, text: '{"message":"The selected order by is invalid.","errors":{"order_by":["The selected order by is invalid."]}}' },
  'v1 search: random ignores order_dir': { status: 200, type: JSON_TYPE },
  'v1 search: bad order_by and order_dir': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The selected order by is invalid. (and 1 more error)","errors":{"order_by":["The selected order by is invalid."],"order_dir":["The selected order dir is invalid."]}}',
  },
  'v1 search: bad tags': { status: 422, type: JSON_TYPE, text: '{"message":"The tags must be a comma-separated list of ids.","errors":{"tags":["The tags must be a comma-separated list of ids."]}}' },
  'v1 search: only_tags names hide tags': { status: 200, type: JSON_TYPE },
  'v1 search: bad lists': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The lists must be a comma-separated list of ids. (and 4 more errors)","errors":{"lists":["The lists must be a comma-separated list of ids."],"query":["You must either enter a search query, or select a list or a tag."],"only_lists":["You must either enter a search query, or select a list or a tag."],"only_tags":["You must either enter a search query, or select a list or a tag."],"broken_only":["You must either enter a search query, or select a list or a tag."]}}',
  },
  'v1 search: query too long': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The query must not be greater than 2048 characters. (and 4 more errors)","errors":{"query":["The query must not be greater than 2048 characters.","You must either enter a search query, or select a list or a tag."],"only_lists":["You must either enter a search query, or select a list or a tag."],"only_tags":["You must either enter a search query, or select a list or a tag."],"broken_only":["You must either enter a search query, or select a list or a tag."]}}',
  },
  'v1 search: all at once': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The query must be a string. (and 9 more errors)","errors":{"query":["The query must be a string.","You must either enter a search query, or select a list or a tag."],"tags":["The tags must be a comma-separated list of ids."],"lists":["The lists must be a comma-separated list of ids."],"is_private":["The is private field must be true or false."],"order_by":["The selected order by is invalid."],"order_dir":["The selected order dir is invalid."],"only_lists":["You must either enter a search query, or select a list or a tag."],"only_tags":["You must either enter a search query, or select a list or a tag."],"broken_only":["You must either enter a search query, or select a list or a tag."]}}',
  },
  'v1 search: system token, names': { status: 200, type: JSON_TYPE },
  'v1 lists: bad order': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The selected order by is invalid. (and 1 more error)","errors":{"order_by":["The selected order by is invalid."],"order_dir":["The selected order dir is invalid."]}}',
  },
  'v1 tags: description is not a tag order': { status: 422, type: JSON_TYPE, text: '{"message":"The selected order by is invalid.","errors":{"order_by":["The selected order by is invalid."]}}' },
  'v1 tags: order_dir repeated': { status: 422, type: JSON_TYPE, text: '{"message":"The selected order dir is invalid.","errors":{"order_dir":["The selected order dir is invalid."]}}' },
  'v1 lists: empty order is the default': { status: 200, type: JSON_TYPE },
  'v1 notes: page and per_page are never refused': { status: 200, type: JSON_TYPE },
  'v1 notes: missing link first': { status: 404, type: JSON_TYPE, text: '{"message":"No query results for model [App\\\\Models\\\\Link] 999999"}' },
  'v1 notes: another user link': { status: 403, type: JSON_TYPE, text: '[]' },
  'v1 export: bad format': { status: 422, type: JSON_TYPE, text: '{"message":"The selected format is invalid.","errors":{"format":["The selected format is invalid."]}}' },
  'v1 export: format repeated': { status: 422, type: JSON_TYPE, text: '{"message":"The selected format is invalid.","errors":{"format":["The selected format is invalid."]}}' },
  'v1 export: unauthenticated': { status: 401, type: JSON_TYPE, text: '{"message":"Unauthenticated."}' },
  'v1 import: a flag is never refused': {
    status: 422,
    type: JSON_TYPE,
    text: '{"message":"The file field is required (multipart/form-data, field \\"file\\", a Netscape bookmark HTML file).","errors":{"file":["The file field is required (multipart/form-data, field \\"file\\", a Netscape bookmark HTML file)."]}}',
  },
  'v2 tag search: repeated query': { status: 200, type: JSON_TYPE },
  'v1 list search: no query': { status: 200, type: JSON_TYPE },
};

let f: Fixture;
let linkId: number;
let otherId: number;
beforeAll(async () => {
  f = await setup();
  linkId = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://taken.example', visibility: 3 })).body.id;
  otherId = (await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://b.example', visibility: 3 })).body.id;
});
afterAll(async () => {
  await f.close();
});

describe('bookmark query error bodies', () => {
  it('every case has its recorded answer', () => {
    expect(QUERY_CASES.map(([name]) => name).sort()).toEqual(Object.keys(EXPECTED).sort());
  });
  for (const [name, who, method, url] of QUERY_CASES) {
    it(name, async () => {
      const r = await f.req(who === null ? null : f[who], method, url.replace('{id}', String(linkId)).replace('{other}', String(otherId)));
      const want = EXPECTED[name]!;
      expect({ status: r.status, type: r.headers['content-type'], ...(want.text === undefined ? {} : { text: r.text }) }).toEqual(want);
    });
  }
});

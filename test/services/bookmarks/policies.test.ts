/**
 * LinkAce 2.x's policies (app/Policies/LinkPolicy.php, LinkListPolicy.php, TagPolicy.php, NotePolicy.php) as a
 * matrix, through v2 and v1: user A owns a public, an internal and a private link, list, tag and note; the owner
 * (A), another user (B) and a guest (guest access on) view, update, delete and restore each, and attach each
 * list and tag to a link of their own.
 * - view and update: the owner, or any user when the item is not private (guests view public items only);
 * - delete and restore: the owner only (a restore by anyone else finds nothing in their trash: 404);
 * - attach: as update; another user's private list or tag is refused (422), the one place ops is stricter;
 * - a guest changes nothing (401).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setup, type Fixture } from './helpers.js';

type Who = 'owner' | 'other' | 'guest';
type Kind = 'link' | 'list' | 'tag' | 'note';
type Version = 'v1' | 'v2';
const WHO: Who[] = ['owner', 'other', 'guest'];
const VISIBILITIES = [1, 2, 3] as const;
const PLURAL: Record<Kind, string> = { link: 'links', list: 'lists', tag: 'tags', note: 'notes' };

let f: Fixture;
/** A public link of A that every note of the matrix is attached to (so only the note's own visibility counts). */
let noteLink: number;
let serial = 0;

const tokenOf = (who: Who) => (who === 'owner' ? f.A : who === 'other' ? f.B : null);

beforeAll(async () => {
  f = await setup({ guestAccess: true });
  noteLink = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://notes.example', visibility: 1 })).body.id;
});
afterAll(async () => {
  await f.close();
});

/** A new item of A's with this visibility; returns its id. */
async function create(kind: Kind, visibility: number): Promise<number> {
  const n = ++serial;
  const body = kind === 'link' ? { url: `https://example.com/${n}`, visibility } : kind === 'note' ? { link_id: noteLink, note: `note ${n}`, visibility } : { name: `${kind} ${n}`, visibility };
  const r = await f.req(f.A, 'POST', `/api/v2/${PLURAL[kind]}`, body);
  expect(r.status).toBe(200);
  return r.body.id;
}

function changeBody(kind: Kind, text: string): Record<string, string> {
  return kind === 'link' ? { title: text } : kind === 'note' ? { note: text } : { name: text };
}

/** What LinkAce's policy answers; `ok` is the success status of the route. */
function expected(who: Who, visibility: number, action: 'view' | 'update' | 'delete' | 'restore', ok: number): number {
  if (who === 'owner') return ok;
  if (who === 'guest') return action === 'view' ? (visibility === 1 ? 200 : 403) : 401;
  if (action === 'restore') return 404;
  if (action === 'delete') return 403;
  return visibility === 3 ? 403 : ok;
}

/** Reads one item as `who`: a note is read through the notes of its link. */
async function view(v: Version, who: Who, kind: Kind, id: number): Promise<number> {
  if (kind !== 'note') return (await f.req(tokenOf(who), 'GET', `/api/${v}/${PLURAL[kind]}/${id}`)).status;
  const r = await f.req(tokenOf(who), 'GET', `/api/${v}/links/${noteLink}/notes?per_page=100`);
  expect(r.status).toBe(200);
  return r.body.data.some((n: { id: number }) => n.id === id) ? 200 : 403;
}

describe.each(['v2', 'v1'] as Version[])('policy matrix through %s', (v) => {
  test.each(['link', 'list', 'tag', 'note'] as Kind[])('%s: view, update, delete, restore', async (kind) => {
    const seen: string[] = [];
    const want: string[] = [];
    for (const visibility of VISIBILITIES) {
      for (const who of WHO) {
        const cell = `${who} ${kind} visibility ${visibility}`;
        const id = await create(kind, visibility);
        seen.push(`${cell} view ${await view(v, who, kind, id)}`);
        want.push(`${cell} view ${expected(who, visibility, 'view', 200)}`);

        const text = `changed by ${who} ${id}`;
        const u = await f.req(tokenOf(who), 'PATCH', `/api/${v}/${PLURAL[kind]}/${id}`, changeBody(kind, text));
        seen.push(`${cell} update ${u.status}`);
        want.push(`${cell} update ${expected(who, visibility, 'update', 200)}`);
        if (u.status === 200) {
          // the change is stored, the owner stays the owner
          const field = Object.keys(changeBody(kind, ''))[0]!;
          expect(u.body[field]).toBe(text);
          expect(u.body.user_id).toBe(1);
        }

        const d = await f.req(tokenOf(who), 'DELETE', `/api/${v}/${PLURAL[kind]}/${id}`);
        seen.push(`${cell} delete ${d.status}`);
        want.push(`${cell} delete ${expected(who, visibility, 'delete', v === 'v1' ? 204 : 200)}`);

        if (d.status >= 300) expect((await f.req(f.A, 'DELETE', `/api/v2/${PLURAL[kind]}/${id}`)).status).toBe(200);
        const r = await f.req(tokenOf(who), 'PATCH', `/api/${v}/trash/restore`, { model: kind, id });
        seen.push(`${cell} restore ${r.status}`);
        want.push(`${cell} restore ${expected(who, visibility, 'restore', 200)}`);
        // restored or not, A's item is A's: still there for A to restore
        if (r.status !== 200) expect((await f.req(f.A, 'PATCH', '/api/v2/trash/restore', { model: kind, id })).status).toBe(200);
        expect(await view('v2', 'owner', kind, id)).toBe(200);
      }
    }
    expect(seen).toEqual(want);
  });

  test.each(['list', 'tag'] as Kind[])('%s: attach to a link on create and on update', async (kind) => {
    const seen: string[] = [];
    const want: string[] = [];
    const field = PLURAL[kind];
    for (const visibility of VISIBILITIES) {
      for (const who of WHO) {
        const cell = `${who} attaches ${kind} visibility ${visibility}`;
        const id = await create(kind, visibility);
        const priv = v === 'v1' ? { is_private: false } : { visibility: 2 };
        const c = await f.req(tokenOf(who), 'POST', `/api/${v}/links`, { url: `https://attach.example/${++serial}`, [field]: [id], ...priv });
        const ok = v === 'v1' ? 201 : 200;
        const allowed = who === 'owner' || (who === 'other' && visibility !== 3);
        seen.push(`${cell} on create ${c.status}`);
        want.push(`${cell} on create ${who === 'guest' ? 401 : allowed ? ok : 422}`);
        if (c.status === ok) expect(c.body[field].map((x: { id: number }) => x.id)).toEqual([id]);
        if (c.status === 422) expect(c.body.errors[field]).toEqual([`The selected ${field} are invalid: unknown ${kind} id ${id}.`]);

        if (who === 'guest') continue;
        const own = (await f.req(tokenOf(who), 'POST', '/api/v2/links', { url: `https://attach.example/${++serial}` })).body.id;
        const u = await f.req(tokenOf(who), 'PATCH', `/api/${v}/links/${own}`, { [field]: `${id}` });
        seen.push(`${cell} on update ${u.status}`);
        want.push(`${cell} on update ${allowed ? 200 : 422}`);
        const now = await f.req(tokenOf(who), 'GET', `/api/v2/links/${own}`);
        expect(now.body[field].map((x: { id: number }) => x.id)).toEqual(allowed ? [id] : []);
      }
    }
    expect(seen).toEqual(want);
  });
});

describe('shared items', () => {
  test("a note on a link that became another user's private link: 403 on update, delete and read (v2 and v1)", async () => {
    const link = (await f.req(f.A, 'POST', '/api/v2/links', { url: `https://turns-private.example/${++serial}`, visibility: 2 })).body.id;
    const note = await f.req(f.B, 'POST', '/api/v2/notes', { link_id: link, note: 'B was here', visibility: 1 });
    expect(note.status).toBe(200);
    expect((await f.req(f.B, 'PATCH', `/api/v2/notes/${note.body.id}`, { note: 'still shared' })).status).toBe(200);
    expect((await f.req(f.A, 'PATCH', `/api/v2/links/${link}`, { visibility: 3 })).status).toBe(200);
    for (const v of ['v1', 'v2']) {
      expect([v, (await f.req(f.B, 'PATCH', `/api/${v}/notes/${note.body.id}`, { note: 'x' })).status]).toEqual([v, 403]);
      expect([v, (await f.req(f.B, 'PUT', `/api/${v}/notes/${note.body.id}`, { note: 'x' })).status]).toEqual([v, 403]);
      expect([v, (await f.req(f.B, 'DELETE', `/api/${v}/notes/${note.body.id}`)).status]).toEqual([v, 403]);
      expect([v, (await f.req(f.B, 'GET', `/api/${v}/links/${link}/notes`)).status]).toEqual([v, 403]);
      expect([v, (await f.req(f.B, 'POST', `/api/${v}/notes`, { link_id: link, note: 'again' })).status]).toEqual([v, 403]);
    }
    // the note is untouched; the link's owner still sees it, B does again once the link is shared again
    const notes = await f.req(f.A, 'GET', `/api/v2/links/${link}/notes`);
    expect(notes.body.data.map((n: { note: string }) => n.note)).toEqual(['still shared']);
    await f.req(f.A, 'PATCH', `/api/v2/links/${link}`, { visibility: 2 });
    expect((await f.req(f.B, 'PATCH', `/api/v2/notes/${note.body.id}`, { note: 'back' })).status).toBe(200);
    expect((await f.req(f.B, 'DELETE', `/api/v2/notes/${note.body.id}`)).status).toBe(200);
  });

  test("another user's update of a shared link: names make the caller's own tags, hidden lists and tags stay attached, URLs stay unique per owner", async () => {
    const secretTag = (await f.req(f.A, 'POST', '/api/v2/tags', { name: `secret ${++serial}`, visibility: 3 })).body.id;
    const secretList = (await f.req(f.A, 'POST', '/api/v2/lists', { name: `secret ${++serial}`, visibility: 3 })).body.id;
    const sharedTag = (await f.req(f.A, 'POST', '/api/v2/tags', { name: `shared ${++serial}`, visibility: 2 })).body.id;
    const taken = `https://taken.example/${++serial}`;
    await f.req(f.A, 'POST', '/api/v2/links', { url: taken });
    const link = (await f.req(f.A, 'POST', '/api/v2/links', { url: `https://shared.example/${++serial}`, visibility: 2, tags: [secretTag, sharedTag], lists: [secretList] })).body.id;

    const seenByB = await f.req(f.B, 'GET', `/api/v2/links/${link}`);
    expect(seenByB.body.tags.map((t: { id: number }) => t.id)).toEqual([sharedTag]);
    const u = await f.req(f.B, 'PATCH', `/api/v2/links/${link}`, { tags: ['from-b'], lists: [] });
    expect(u.status).toBe(200);
    expect(u.body.tags.map((t: { name: string; user_id: number }) => [t.name, t.user_id === u.body.user_id])).toEqual([['from-b', false]]);
    const seenByA = await f.req(f.A, 'GET', `/api/v2/links/${link}`);
    // B's new tag has B's default visibility (private): A does not see it, but it is attached
    expect(seenByA.body.tags.map((t: { id: number }) => t.id)).toEqual([secretTag]);
    expect((await f.req(f.B, 'GET', `/api/v2/tags/${u.body.tags[0].id}/links`)).body.data.map((l: { id: number }) => l.id)).toEqual([link]);
    expect(seenByA.body.lists.map((l: { id: number }) => l.id)).toEqual([secretList]);
    expect(seenByA.body.user_id).toBe(1);

    // link.updated belongs to the owner: the link as A sees it (A's private tag and list, not B's private tag)
    const updatedEvents = () => f.events.filter((e) => e.type === 'link.updated' && (e.data as { id: number }).id === link);
    const event = updatedEvents().at(-1)!;
    expect(event.userId).toBe(1);
    expect((event.data as any).tags.map((t: { id: number }) => t.id)).toEqual([secretTag]);
    expect((event.data as any).lists.map((l: { id: number }) => l.id)).toEqual([secretList]);

    const dup = await f.req(f.B, 'PATCH', `/api/v2/links/${link}`, { url: taken });
    expect([dup.status, dup.body.errors]).toEqual([422, { url: ['The url has already been taken.'] }]);

    // bulk: B replaces the tags of A's shared link; A's private tag stays there
    const bulk = await f.req(f.B, 'PATCH', '/api/v2/bulk/links', { models: [link], tags: [], tags_mode: 'replace', lists: [], lists_mode: 'append', visibility: null });
    expect(bulk.body[0].tags).toEqual([]);
    expect((await f.req(f.A, 'GET', `/api/v2/links/${link}`)).body.tags.map((t: { id: number }) => t.id)).toEqual([secretTag]);
    const bulkEvent = updatedEvents().at(-1)!;
    expect([bulkEvent.userId, (bulkEvent.data as any).tags.map((t: { id: number }) => t.id)]).toEqual([1, [secretTag]]);
  });

  test('bulk edit follows the update policy, bulk delete the delete policy', async () => {
    const links = [await create('link', 1), await create('link', 2), await create('link', 3)];
    const edit = await f.req(f.B, 'PATCH', '/api/v2/bulk/links', { models: links, tags: [], tags_mode: 'append', lists: [], lists_mode: 'append', visibility: null });
    expect(edit.body.map((x: { id: number } | null) => x && x.id)).toEqual([links[0], links[1], null]);
    for (const kind of ['list', 'tag'] as const) {
      const ids = [await create(kind, 1), await create(kind, 2), await create(kind, 3)];
      const r = await f.req(f.B, 'PATCH', `/api/v2/bulk/${PLURAL[kind]}`, { models: ids, visibility: 1 });
      expect(r.body.map((x: { id: number; visibility: number } | null) => x && [x.id, x.visibility])).toEqual([[ids[0], 1], [ids[1], 1], null]);
      const d = await f.req(f.B, 'DELETE', '/api/v2/bulk/delete', { type: PLURAL[kind], models: ids });
      expect(d.body).toEqual(Object.fromEntries(ids.map((id) => [id, false])));
    }
    const d = await f.req(f.B, 'DELETE', '/api/v2/bulk/delete', { type: 'links', models: links });
    expect(d.body).toEqual(Object.fromEntries(links.map((id) => [id, false])));
    expect((await f.req(f.A, 'DELETE', '/api/v2/bulk/delete', { type: 'links', models: links })).body).toEqual(Object.fromEntries(links.map((id) => [id, true])));
  });
});

describe('trash', () => {
  test('every trash list is by id, whatever the order of deletion (as LinkAce lists them), v2 and v1', async () => {
    const g = await setup();
    try {
      for (const kind of ['link', 'list', 'tag', 'note'] as Kind[]) {
        const link = kind === 'note' ? (await g.req(g.A, 'POST', '/api/v2/links', { url: 'https://trash-notes.example' })).body.id : 0;
        const ids: number[] = [];
        for (let i = 0; i < 3; i++) {
          const body = kind === 'link' ? { url: `https://t.example/${i}` } : kind === 'note' ? { link_id: link, note: `n${i}` } : { name: `${kind}${i}` };
          ids.push((await g.req(g.A, 'POST', `/api/v2/${PLURAL[kind]}`, body)).body.id);
        }
        for (const i of [1, 2, 0]) expect((await g.req(g.A, 'DELETE', `/api/v2/${PLURAL[kind]}/${ids[i]}`)).status).toBe(200);
        for (const v of ['v1', 'v2']) {
          const r = await g.req(g.A, 'GET', `/api/${v}/trash/${PLURAL[kind]}`);
          expect([v, kind, r.body.map((x: { id: number }) => x.id)]).toEqual([v, kind, ids]);
        }
      }
    } finally {
      await g.close();
    }
  });
});

/**
 * The shared Netscape bookmark reader/writer (src/formats/netscape.ts), by properties: what the writer
 * writes reads back as the same bookmarks in the same folders; any markup soup reads without throwing,
 * with folder paths within the cap, and the yielding read equals the one-go read; and the rules by example.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_FOLDER_DEPTH, readNetscape, readNetscapeYielding, writeNetscape, type NetscapeOutEntry } from '../../src/formats/netscape.js';

const text = fc.string({ unit: fc.constantFrom('a', 'B', ' ', '&', '<', '>', '"', "'", 'é', '🚲', '\n', ','), minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== '');
const entry: fc.Arbitrary<NetscapeOutEntry> = fc.record({
  url: fc.webUrl(),
  title: text,
  description: fc.option(text, { nil: null }),
  addDate: fc.option(fc.integer({ min: 0, max: 2_000_000_000 }), { nil: null }),
  lastModified: fc.option(fc.integer({ min: 0, max: 2_000_000_000 }), { nil: null }),
  private: fc.boolean(),
  visibility: fc.option(fc.constantFrom(1, 2, 3), { nil: null }),
  tags: fc.array(text, { maxLength: 3 }),
});

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const cleanTag = (s: string) => oneLine(s.replace(/,/g, ' '));
const lines = (s: string) =>
  s
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .join('\n');

function expected(e: NetscapeOutEntry, path: string[]) {
  return {
    url: e.url,
    title: oneLine(e.title),
    description: e.description ? lines(e.description) : null,
    addDate: e.addDate ?? null,
    lastModified: e.lastModified ?? null,
    tags: [...new Set(e.tags.map(cleanTag).filter(Boolean))],
    path,
    private: e.private,
    visibility: e.visibility ?? null,
  };
}

describe('formats/netscape: properties', () => {
  it('what the writer writes reads back as the same bookmarks in the same folders', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 4 }), fc.array(fc.tuple(text, fc.array(entry, { maxLength: 3 })), { maxLength: 3 }), (top, folders) => {
        const html = writeNetscape(top, { title: 'Mine', folders: folders.map(([name, entries]) => ({ name, entries })) });
        const doc = readNetscape(html);
        expect(doc.title).toBe('Mine');
        const got = doc.entries.map((e) => ({ ...e, path: e.path.map((f) => f.name) }));
        const want = [...top.map((e) => expected(e, [])), ...folders.flatMap(([name, entries]) => entries.map((e) => expected(e, [oneLine(name)])))];
        expect(got).toEqual(want);
        expect(doc.folders.map((p) => p.map((f) => f.name))).toEqual(folders.map(([name]) => [oneLine(name)]));
      }),
      { numRuns: 300 },
    );
  });

  it('any markup soup reads without throwing, paths within the cap, and the yielding read is the same', async () => {
    const piece = fc.constantFrom(
      '<DL>',
      '</DL>',
      '<DT>',
      '<H3>',
      '</H3>',
      '<H3 PERSONAL_TOOLBAR_FOLDER="true">',
      '<A HREF="https://x.example">',
      '<A>',
      '</A>',
      '<DD>',
      '</DD>',
      '<b>',
      '</b>',
      '<p>',
      'text',
      ' ',
      '\n',
      '&amp;',
      '<TITLE>',
      '</TITLE>',
      '<',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 60 }), async (pieces) => {
        const html = pieces.join('');
        const doc = readNetscape(html);
        for (const e of doc.entries) expect(e.path.length).toBeLessThanOrEqual(MAX_FOLDER_DEPTH);
        expect(await readNetscapeYielding(html)).toEqual(doc);
      }),
      { numRuns: 300 },
    );
  });
});

describe('formats/netscape: rules by example', () => {
  it('folders nest through <DL>; the toolbar folder is marked; deep nesting folds into the cap', () => {
    const doc = readNetscape('<DL><DT><H3 PERSONAL_TOOLBAR_FOLDER="true">Bar</H3><DL><DT><H3></H3><DL><DT><A HREF="https://a.example">A</A></DL></DL><DT><A HREF="https://b.example">B</A></DL>');
    expect(doc.entries.map((e) => [e.url, e.path])).toEqual([
      [
        'https://a.example',
        [
          { name: 'Bar', special: true },
          { name: '', special: false },
        ],
      ],
      ['https://b.example', []],
    ]);
    const depth = 5_000;
    const deep = readNetscape('<DL>' + '<DT><H3>f</H3><DL>'.repeat(depth) + '<DT><A HREF="https://deep.example">D</A>' + '</DL>'.repeat(depth + 1) + '<DT><A HREF="https://after.example">E</A>');
    expect(deep.entries.map((e) => e.path.length)).toEqual([MAX_FOLDER_DEPTH, 0]);
    expect(deep.folders).toHaveLength(MAX_FOLDER_DEPTH);
  });

  it('a title reads through inline markup; a <DD> describes only the bookmark right before it', () => {
    const doc = readNetscape(
      '<DL><DT><A HREF="https://a.example">An <b>bold</b>  one</A><DD> line 1 \n   line 2\n<DT><H3>F</H3><DD>folder text<DL><DT><A HREF="https://b.example" DESCRIPTION="attr">B</A><DD>ignored</DL>',
    );
    expect(doc.entries.map((e) => [e.title, e.description])).toEqual([
      ['An bold one', 'line 1\nline 2'],
      ['B', 'attr'],
    ]);
  });

  it('PRIVATE before PUBLIC before SHARED; unreadable flags are null; dates as epochs or date text; TAGS split on commas', () => {
    const doc = readNetscape(
      '<DT><A HREF="https://1.example" PRIVATE="0" PUBLIC="0">1</A><DT><A HREF="https://2.example" PUBLIC="no">2</A><DT><A HREF="https://3.example" SHARED="1">3</A><DT><A HREF="https://4.example" PRIVATE="maybe">4</A>' +
        '<DT><A HREF="https://5.example" ADD_DATE="1600000000123" LAST_MODIFIED="2020-01-01T00:00:00Z" TAGS="a b, c ,a b">5</A><DT><A HREF="https://6.example" ADD_DATE="-5">6</A>',
    );
    expect(doc.entries.map((e) => e.private)).toEqual([false, true, false, null, null, null]);
    expect(doc.entries[4]).toMatchObject({ addDate: 1600000000, lastModified: 1577836800, tags: ['a b', 'c'] });
    expect(doc.entries[5]!.addDate).toBeNull();
  });
});

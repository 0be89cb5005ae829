import { describe, expect, test } from 'vitest';
import { escapeHtml, parseEpoch, parseNetscape, serializeNetscape, splitTags, type ExportLink } from '../../../src/clients/bookmarks/netscape.js';

const CHROME = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file.
     It will be read and overwritten.
     DO NOT EDIT! -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
    <DT><H3 ADD_DATE="1600000000" LAST_MODIFIED="1600000001" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>
    <DL><p>
        <DT><A HREF="https://a.example/?x=1&amp;y=2" ADD_DATE="1600000000123" ICON="data:image/png;base64,AAA">Ä &amp; B &lt;tag&gt;</A>
        <DT><H3>Dev</H3>
        <DL><p>
            <DT><A HREF="https://dev.example/">Dev site</A>
            <DD>First line
            second line
            <DT><H3>Empty</H3>
            <DL><p>
            </DL><p>
        </DL><p>
    </DL><p>
    <DT><A HREF="https://top.example" TAGS="one, two ,one" PRIVATE="1" LAST_MODIFIED="1700000000">Top</A>
    <DT><A HREF="https://pub.example" PRIVATE="0">Pub</A>
    <DT><A HREF="https://vis.example" VISIBILITY="2" DESCRIPTION="from attr">Vis</A>
    <DD>ignored because the attribute wins
</DL><p>
`;

describe('parseNetscape', () => {
  const file = parseNetscape(CHROME);

  test('reads the title and every bookmark in file order', () => {
    expect(file.title).toBe('Bookmarks');
    expect(file.bookmarks.map((b) => b.url)).toEqual(['https://a.example/?x=1&y=2', 'https://dev.example/', 'https://top.example', 'https://pub.example', 'https://vis.example']);
  });

  test('decodes entities in titles and URLs, keeps non-ASCII', () => {
    expect(file.bookmarks[0]!.title).toBe('Ä & B <tag>');
  });

  test('nested folders give the path, empty folders are listed too', () => {
    expect(file.bookmarks[0]!.folders).toEqual(['Bookmarks bar']);
    expect(file.bookmarks[1]!.folders).toEqual(['Bookmarks bar', 'Dev']);
    expect(file.bookmarks[2]!.folders).toEqual([]);
    expect(file.folders).toEqual([['Bookmarks bar'], ['Bookmarks bar', 'Dev'], ['Bookmarks bar', 'Dev', 'Empty']]);
  });

  test('a DD after a bookmark is its description, multi-line kept, indentation dropped', () => {
    expect(file.bookmarks[1]!.description).toBe('First line\nsecond line');
    expect(file.bookmarks[0]!.description).toBeNull();
  });

  test('DESCRIPTION attribute wins over a DD', () => {
    expect(file.bookmarks[4]!.description).toBe('from attr');
  });

  test('dates: millisecond epochs scaled to seconds', () => {
    expect(file.bookmarks[0]!.addDate).toBe(1600000000);
    expect(file.bookmarks[2]!.lastModified).toBe(1700000000);
    expect(file.bookmarks[1]!.addDate).toBeNull();
  });

  test('tags split on commas, trimmed, de-duplicated', () => {
    expect(file.bookmarks[2]!.tags).toEqual(['one', 'two']);
  });

  test('PRIVATE and VISIBILITY attributes', () => {
    expect(file.bookmarks[2]!.private).toBe(true);
    expect(file.bookmarks[3]!.private).toBe(false);
    expect(file.bookmarks[0]!.private).toBeNull();
    expect(file.bookmarks[4]!.visibility).toBe(2);
    expect(file.bookmarks[0]!.visibility).toBeNull();
  });

  test('unclosed anchors (as some exporters write) still give bookmarks', () => {
    const f = parseNetscape('<DL><DT><A HREF="https://x.example">X\n<DT><A HREF="https://y.example">Y</DL>');
    expect(f.bookmarks.map((b) => [b.url, b.title])).toEqual([
      ['https://x.example', 'X'],
      ['https://y.example', 'Y'],
    ]);
  });

  test('anchors without HREF are ignored; a title falls back to empty', () => {
    const f = parseNetscape('<DL><DT><A NAME="x">nothing</A><DT><A HREF="https://z.example"></A></DL>');
    expect(f.bookmarks).toHaveLength(1);
    expect(f.bookmarks[0]!.title).toBe('');
  });

  test('a DD after a folder heading is not a bookmark description', () => {
    const f = parseNetscape('<DL><DT><H3>F</H3><DD>folder text<DL><DT><A HREF="https://q.example">Q</A></DL></DL>');
    expect(f.bookmarks[0]!.description).toBeNull();
    expect(f.bookmarks[0]!.folders).toEqual(['F']);
  });

  test('a folder heading without its own DL does not swallow later bookmarks', () => {
    const f = parseNetscape('<DL><DT><H3>Lonely</H3><DT><A HREF="https://r.example">R</A></DL>');
    expect(f.bookmarks[0]!.folders).toEqual([]);
  });

  test('unbalanced closing DLs do not crash', () => {
    const f = parseNetscape('</DL></DL><DL><DT><A HREF="https://s.example">S</A>');
    expect(f.bookmarks).toHaveLength(1);
  });

  test('empty input gives nothing', () => {
    expect(parseNetscape('')).toEqual({ title: null, bookmarks: [], folders: [] });
  });

  test('scripts and comments are not bookmarks', () => {
    const f = parseNetscape('<!-- <A HREF="https://no.example">no</A> --><DL><DT><A HREF="https://yes.example">yes</A></DL>');
    expect(f.bookmarks.map((b) => b.url)).toEqual(['https://yes.example']);
  });
});

describe('helpers', () => {
  test('parseEpoch', () => {
    const now = 1_700_000_000;
    expect(parseEpoch('1600000000', now)).toBe(1600000000);
    expect(parseEpoch('1600000000000', now)).toBe(1600000000);
    expect(parseEpoch('1600000000000000', now)).toBe(1600000000);
    expect(parseEpoch('abc', now)).toBeNull();
    expect(parseEpoch(undefined, now)).toBeNull();
    expect(parseEpoch('-5', now)).toBeNull();
  });
  test('splitTags: commas, else spaces', () => {
    expect(splitTags('a b  c')).toEqual(['a', 'b', 'c']);
    expect(splitTags('a b, c')).toEqual(['a b', 'c']);
    expect(splitTags('')).toEqual([]);
  });
  test('escapeHtml', () => {
    expect(escapeHtml(`<a href="x">&</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
  });
});

describe('serializeNetscape', () => {
  const links: ExportLink[] = [
    {
      url: 'https://a.example/?q=1&r="2"',
      title: 'A <b> & "c"',
      description: 'Line 1\nLine 2',
      visibility: 3,
      tags: ['x', 'y,z'],
      lists: [],
      created_at: '2020-01-02T03:04:05.000000Z',
      updated_at: '2021-01-01T00:00:00.000000Z',
    },
    { url: 'https://b.example', title: 'Ünïcødé 日本', visibility: 1, tags: [], lists: ['Reading', 'Dev / Rust'] },
    { url: 'https://c.example', title: '', visibility: 2, tags: ['t'], lists: ['Reading'] },
  ];
  const html = serializeNetscape(links, { title: 'My <marks>' });

  test('has the Netscape header browsers look for', () => {
    expect(html.startsWith('<!DOCTYPE NETSCAPE-Bookmark-file-1>\n')).toBe(true);
    expect(html).toContain('<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">');
    expect(html).toContain('<TITLE>My &lt;marks&gt;</TITLE>');
  });

  test('escapes attributes and text; dates as unix seconds; PRIVATE and VISIBILITY', () => {
    expect(html).toContain(
      'HREF="https://a.example/?q=1&amp;r=&quot;2&quot;" ADD_DATE="1577934245" LAST_MODIFIED="1609459200" PRIVATE="1" VISIBILITY="3" TAGS="x,y z">A &lt;b&gt; &amp; &quot;c&quot;</A>',
    );
  });

  test('round trip: parse(serialize(x)) gives the same links, lists as folders', () => {
    const back = parseNetscape(html);
    expect(back.title).toBe('My <marks>');
    const byUrl = new Map(back.bookmarks.map((b) => [b.url + '|' + b.folders.join('/'), b]));
    const a = byUrl.get('https://a.example/?q=1&r="2"|')!;
    expect(a.title).toBe('A <b> & "c"');
    expect(a.description).toBe('Line 1\nLine 2');
    expect(a.tags).toEqual(['x', 'y z']);
    expect(a.private).toBe(true);
    expect(a.visibility).toBe(3);
    expect(a.addDate).toBe(1577934245);
    expect(byUrl.get('https://b.example|Reading')!.title).toBe('Ünïcødé 日本');
    expect(byUrl.get('https://b.example|Dev / Rust')).toBeDefined();
    expect(byUrl.get('https://c.example|Reading')!.title).toBe('https://c.example');
    expect(back.folders).toEqual([['Dev / Rust'], ['Reading']]);
    expect(back.bookmarks).toHaveLength(4);
  });

  test('an empty export is still a valid file', () => {
    const f = parseNetscape(serializeNetscape([]));
    expect(f.bookmarks).toEqual([]);
    expect(f.title).toBe('Bookmarks');
  });
});

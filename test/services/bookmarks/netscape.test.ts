import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseAddDate, parseNetscape, serializeNetscape, type ExportLink } from '../../../src/services/bookmarks/netscape.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name));

describe('parseNetscape: a Firefox export', () => {
  const items = parseNetscape(fixture('firefox.html'));
  const byUrl = Object.fromEntries(items.map((b) => [b.url, b]));

  test('finds every bookmark (not the commented one), in file order', () => {
    expect(items.map((b) => b.url)).toEqual([
      'https://www.mozilla.org/en-US/firefox/central/',
      'https://news.ycombinator.com/',
      'https://developer.mozilla.org/',
      'https://www.typescriptlang.org/',
      'https://nodejs.org/',
      'place:parent=menu&sort=12',
      'https://no-title.example/path',
      'https://lowercase.example/',
    ]);
  });

  test('nested folders become tags (accumulated); the toolbar folder does not; TAGS attribute added', () => {
    expect(byUrl['https://www.mozilla.org/en-US/firefox/central/']!.tags).toEqual([]);
    expect(byUrl['https://news.ycombinator.com/']!.tags).toEqual(['news', 'tech']);
    expect(byUrl['https://developer.mozilla.org/']!.tags).toEqual(['Dev Tools']);
    expect(byUrl['https://www.typescriptlang.org/']!.tags).toEqual(['Dev Tools', 'JavaScript TypeScript']);
    expect(byUrl['https://nodejs.org/']!.tags).toEqual(['Dev Tools', 'runtime']);
    expect(byUrl['https://lowercase.example/']!.tags).toEqual([]);
  });

  test('titles with entities and unicode; empty titles stay empty', () => {
    expect(byUrl['https://developer.mozilla.org/']!.title).toBe('MDN <Web Docs>');
    expect(byUrl['https://www.typescriptlang.org/']!.title).toBe('TypeScript — Typed JavaScript');
    expect(byUrl['https://no-title.example/path']!.title).toBe('');
  });

  test('descriptions from <DD> (multi-line) or the DESCRIPTION attribute', () => {
    expect(byUrl['https://news.ycombinator.com/']!.description).toBe('Links for the\nintellectually curious & more');
    expect(byUrl['https://www.typescriptlang.org/']!.description).toBe('Ünïcödé description ✓');
    expect(byUrl['https://lowercase.example/']!.description).toBe('from attribute');
    expect(byUrl['https://developer.mozilla.org/']!.description).toBeNull();
  });

  test('add dates in seconds, milliseconds and microseconds; bad dates null', () => {
    expect(byUrl['https://news.ycombinator.com/']!.addDate).toBe(1600000000);
    expect(byUrl['https://developer.mozilla.org/']!.addDate).toBe(1600000001);
    expect(byUrl['https://nodejs.org/']!.addDate).toBe(1600000003);
    expect(byUrl['https://lowercase.example/']!.addDate).toBeNull();
  });

  test('private flags', () => {
    expect(byUrl['https://www.typescriptlang.org/']!.private).toBe(true);
    expect(byUrl['https://nodejs.org/']!.private).toBe(false);
    expect(byUrl['https://developer.mozilla.org/']!.private).toBeNull();
  });
});

describe('parseNetscape: encodings and odd markup', () => {
  test('windows-1252 without a charset declaration', () => {
    const [b] = parseNetscape(fixture('windows1252.html'));
    expect(b).toMatchObject({ url: 'https://cafe.example/', title: 'Café du Monde – Menü', description: 'Crème brûlée', tags: ['Café Links'], addDate: 1500000000 });
  });
  test('UTF-8 with a BOM', () => {
    expect(parseNetscape(fixture('utf8-bom.html'))[0]!.title).toBe('日本語');
  });
  test('a charset declared in the file wins', () => {
    const bytes = Buffer.concat([
      Buffer.from('<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=ISO-8859-1"><DL><DT><A HREF="https://x.example/">'),
      Buffer.from([0xe9]),
      Buffer.from('</A></DL>'),
    ]);
    expect(parseNetscape(bytes)[0]!.title).toBe('é');
  });
  test('no closing tags at all, PUBLIC attribute, Pinboard-style', () => {
    const items = parseNetscape('<DL><DT><A HREF="https://a.example" PUBLIC="yes">A<DT><A HREF="https://b.example" PRIVATE="0" TOREAD="1" TAGS="x">B<DD>desc b');
    expect(items).toEqual([
      { url: 'https://a.example', title: 'A', description: null, tags: [], addDate: null, private: false },
      { url: 'https://b.example', title: 'B', description: 'desc b', tags: ['x'], addDate: null, private: false },
    ]);
  });
  test('empty or garbage input gives no bookmarks', () => {
    expect(parseNetscape('')).toEqual([]);
    expect(parseNetscape('just text <b>bold</b>')).toEqual([]);
    expect(parseNetscape(Buffer.from([0, 1, 2, 255, 254]))).toEqual([]);
  });
  test('parseAddDate', () => {
    expect(parseAddDate('1600000000')).toBe(1600000000);
    expect(parseAddDate('2020-01-01T00:00:00Z')).toBe(1577836800);
    expect(parseAddDate('')).toBeNull();
    expect(parseAddDate(undefined)).toBeNull();
  });
});

describe('serializeNetscape', () => {
  test('the Netscape header, one flat list, escaped attributes and text', () => {
    const html = serializeNetscape([
      { url: 'https://a.example/?q="x"&y=<1>', title: 'A & <B>', description: 'line 1\nline 2', addDate: 1600000000, private: true, tags: ['t1', 'two words'] },
      { url: 'https://b.example/', title: 'B', description: null, addDate: null, private: false, tags: [] },
    ]);
    expect(html.startsWith('<!DOCTYPE NETSCAPE-Bookmark-file-1>\n')).toBe(true);
    expect(html).toContain('<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">');
    expect(html).toContain('<DT><A HREF="https://a.example/?q=&quot;x&quot;&amp;y=&lt;1&gt;" ADD_DATE="1600000000" PRIVATE="1" TAGS="t1,two words">A &amp; &lt;B&gt;</A>');
    expect(html).toContain('<DD>line 1\nline 2');
    expect(html).toContain('<DT><A HREF="https://b.example/" PRIVATE="0">B</A>');
  });

  test('property: serialize then parse gives the same bookmarks back', () => {
    const text = fc
      .string({ minLength: 1, maxLength: 40 })
      .map((s) => s.replace(/\s+/g, ' ').trim())
      .filter((s) => s.length > 0);
    const link = fc.record({
      url: fc.webUrl().filter((u) => !/\s/.test(u)),
      title: text,
      description: fc.option(text, { nil: null }),
      addDate: fc.option(fc.integer({ min: 0, max: 2_000_000_000 }), { nil: null }),
      private: fc.boolean(),
      tags: fc.uniqueArray(text.map((t) => t.replace(/,/g, ' ').replace(/\s+/g, ' ').trim()).filter(Boolean), {
        maxLength: 4,
        comparator: (a, b) => a.toLowerCase() === b.toLowerCase(),
      }),
    });
    fc.assert(
      fc.property(fc.array(link, { maxLength: 8 }), (links: ExportLink[]) => {
        const back = parseNetscape(serializeNetscape(links));
        expect(back).toEqual(links.map((l) => ({ ...l })));
      }),
      { numRuns: 200 },
    );
  });
});

// The bookmark service's HTML parsing (src/services/bookmarks/html-events.ts), measured against
// htmlparser2's Parser in the same run:
//   1. an ordinary 20k-link bookmark file (BENCH_QUICK: 2k): html-events with no-op callbacks against the
//      Parser with no-op callbacks. Target <= 1.2x (no cost for normal files).
//   2. the service's parseNetscape of that file against the Parser floor. Target <= 2x.
//   3. deep nesting, 100,000 nested <div> (BENCH_QUICK: 40,000): html-events against the Parser, whose
//      top-first stack makes it quadratic. Target <= 0.25x (the gap grows with the depth).
import { Parser } from 'htmlparser2';

const QUICK = !!process.env.BENCH_QUICK;
const N = QUICK ? 2_000 : 20_000;
const DEPTH = QUICK ? 40_000 : 100_000;
const ROUNDS = QUICK ? 3 : 5;
const dist = (p) => import(new URL(`../../dist/services/bookmarks/${p}`, import.meta.url).href);
const { scanHtml } = await dist('html-events.js');
const { parseNetscape } = await dist('netscape.js');

const parts = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n'];
for (let f = 0; f < N / 100; f++) {
  parts.push(`<DT><H3 ADD_DATE="1700000000">Folder ${f}</H3>\n<DL><p>\n`);
  for (let i = 0; i < 100; i++)
    parts.push(
      `<DT><A HREF="https://site${f}.example.org/path/${i}?q=${i}&amp;r=x" ADD_DATE="1700000000" TAGS="a,b${i % 7}">Article ${i} — Ünïcødé &amp; friends</A>\n${i % 3 ? '' : `<DD>Notes on article ${i}\n`}`,
    );
  parts.push('</DL><p>\n');
}
parts.push('</DL><p>\n');
const html = parts.join('');
const deep = '<div>'.repeat(DEPTH) + 'x' + '</div>'.repeat(DEPTH);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function measure(fn, rounds = ROUNDS) {
  fn(); // warm up
  const times = [];
  for (let i = 0; i < rounds; i++) {
    globalThis.gc?.();
    const t0 = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(times);
}
const noop = { onopentag() {}, ontext() {}, onclosetag() {} };
const viaParser = (text) => () => {
  const p = new Parser(noop, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  p.write(text);
  p.end();
};
const line = (name, ms, note) => console.log(`${name.padEnd(40)} ${ms.toFixed(1).padStart(9)} ms  ${note}`);
const report = (name, ms, base, baseName, target) => {
  const ratio = ms / base;
  line(name, ms, `${ratio.toFixed(2)}x ${baseName}  (target <= ${target}x: ${ratio <= target ? 'met' : 'NOT met'})`);
};

console.log(`${N} links, ${(html.length / 1024 / 1024).toFixed(1)} MiB of HTML; ${DEPTH} nested <div>; median of ${ROUNDS}`);
const floor = measure(viaParser(html));
line('htmlparser2 Parser, no-op callbacks', floor, '(baseline)');
report(
  'html-events, no-op callbacks',
  measure(() => scanHtml(html, noop)),
  floor,
  'Parser',
  1.2,
);
let found = 0;
report(
  'service parseNetscape',
  measure(() => (found = parseNetscape(html).length)),
  floor,
  'Parser',
  2,
);
if (found !== N) throw new Error(`parsed ${found} of ${N}`);

const deepParser = measure(viaParser(deep), 1);
line(`htmlparser2 Parser, ${DEPTH} nested <div>`, deepParser, '(baseline)');
report(
  `html-events, ${DEPTH} nested <div>`,
  measure(() => scanHtml(deep, noop), 3),
  deepParser,
  'Parser',
  0.25,
);

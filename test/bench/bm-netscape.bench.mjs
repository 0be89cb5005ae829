// `ops bm` client-side Netscape handling, measured against baselines in the same run:
//   1. parseNetscape of a 20k-link file (BENCH_QUICK: 2k) against htmlparser2 tokenizing the same file with
//      no-op callbacks (the floor for any htmlparser2-based parser). Target <= 2x.
//   2. serializeNetscape of those links against JSON.stringify of the same objects (native code). Target <= 5x.
import { Parser } from 'htmlparser2';

const QUICK = !!process.env.BENCH_QUICK;
const N = QUICK ? 2_000 : 20_000;
const ROUNDS = QUICK ? 3 : 7;
const { parseNetscape, serializeNetscape } = await import(new URL('../../dist/clients/bookmarks/netscape.js', import.meta.url).href);

const links = Array.from({ length: N }, (_, i) => ({
  url: `https://site${i % 997}.example.org/path/${i}?q=${i}&r=x`,
  title: `Article ${i} — Ünïcødé & <friends> "${i % 7}"`,
  description: i % 3 ? null : `Notes on article ${i}`,
  visibility: (i % 3) + 1,
  tags: i % 5 ? [] : ['read-later', `t${i % 13}`],
  lists: i % 4 ? [`Folder ${i % 17}`] : [],
  created_at: '2024-01-02T03:04:05.000000Z',
  updated_at: '2024-01-02T03:04:05.000000Z',
}));
const html = serializeNetscape(links);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function measure(fn) {
  fn(); // warm up
  const times = [];
  for (let i = 0; i < ROUNDS; i++) {
    globalThis.gc?.();
    const t0 = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(times);
}
const report = (name, ms, base, baseName, target) => {
  const ratio = ms / base;
  console.log(`${name.padEnd(34)} ${ms.toFixed(1).padStart(8)} ms  ${ratio.toFixed(2)}x ${baseName}  (target <= ${target}x: ${ratio <= target ? 'met' : 'NOT met'})`);
};

console.log(`${N} links, ${(html.length / 1024 / 1024).toFixed(1)} MiB of HTML, median of ${ROUNDS}`);
const floor = measure(() => {
  const p = new Parser({ onopentag() {}, ontext() {}, onclosetag() {} }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  p.write(html);
  p.end();
});
let parsed;
const parse = measure(() => {
  parsed = parseNetscape(html);
});
if (parsed.bookmarks.length !== links.length) throw new Error(`parsed ${parsed.bookmarks.length} of ${links.length}`);
console.log(`${'htmlparser2, no-op callbacks'.padEnd(34)} ${floor.toFixed(1).padStart(8)} ms  (baseline)`);
report('parseNetscape', parse, floor, 'htmlparser2 alone', 2);

const json = measure(() => JSON.stringify(links));
const ser = measure(() => serializeNetscape(links));
console.log(`${'JSON.stringify of the links'.padEnd(34)} ${json.toFixed(1).padStart(8)} ms  (baseline)`);
report('serializeNetscape', ser, json, 'JSON.stringify', 5);

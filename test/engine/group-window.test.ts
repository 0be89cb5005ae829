/**
 * Group windows (bind/group-window.ts): GROUP BY TUMBLE(...)/HOP(...) with TUMBLE_START/_END and HOP_START/_END,
 * against PGlite (TUMBLE as date_bin, HOP as a join with each row's windows) over random inserts and deletes in
 * several steps; the same results as the TABLE(TUMBLE(...)) form; LATENESS releasing the windows' groups; refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { compile, type CompiledProgram, type InputChange, type JsonRow, type WeightedRow } from '../../src/engine/index.js';
import { newPglite } from './pglite.js';
import { norm } from './oracle.js';

const TABLE = 'CREATE TABLE bid (auction INT, bidder INT, price INT, ts TIMESTAMP);';

function prog(views: string, table = TABLE): CompiledProgram {
  const r = compile(`${table}\n${views}`, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('; '));
  return r.program;
}

function errorsOf(sql: string): string[] {
  const r = compile(`${TABLE}\n${sql}`, { outputCase: 'lower' });
  return r.ok ? [] : r.errors.map((e) => e.message);
}

function rowsOf(list: WeightedRow[], cols: string[]): string[] {
  const out: string[] = [];
  for (const { row, weight } of list) for (let i = 0; i < weight; i++) out.push(cols.map((c) => norm(row[c])).join(' | '));
  return out.sort();
}

/** A deterministic pseudo-random generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE = Date.parse('2024-03-01T00:00:00Z');
const tsText = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

describe('GROUP BY TUMBLE / HOP against PGlite', () => {
  let pg: PGlite;
  beforeAll(async () => {
    pg = await newPglite();
    await pg.exec(TABLE.replace('TIMESTAMP', 'TIMESTAMP(3)'));
  }, 60_000);
  afterAll(async () => {
    await pg.close();
  });

  const VIEWS = `
CREATE VIEW tumble_counts AS
SELECT bidder, COUNT(*) AS n, MAX(price) AS top, TUMBLE_START(ts, INTERVAL '10' SECOND) AS ws, TUMBLE_END(ts, INTERVAL '10' SECOND) AS we
FROM bid GROUP BY bidder, TUMBLE(ts, INTERVAL '10' SECOND);
CREATE VIEW tumble_offset AS
SELECT SUM(price) AS total, tumble_start(ts, INTERVAL 1 MINUTE, INTERVAL 15 SECOND) AS ws
FROM bid WHERE price > 10 GROUP BY TUMBLE(ts, INTERVAL 1 MINUTE, INTERVAL 15 SECOND) HAVING COUNT(*) > 1;
CREATE VIEW hop_counts AS
SELECT auction, COUNT(*) AS n, HOP_START(ts, INTERVAL '2' SECOND, INTERVAL '10' SECOND) AS ws, HOP_END(ts, INTERVAL '2' SECOND, INTERVAL '10' SECOND) AS we
FROM bid B GROUP BY HOP(B.ts, INTERVAL '2' SECOND, INTERVAL '10' SECOND), auction;
`;
  // Postgres: TUMBLE as date_bin; HOP as a join with the windows holding each row
  const PG: Record<string, { sql: string; cols: string[] }> = {
    tumble_counts: {
      sql: `SELECT bidder, COUNT(*) AS n, MAX(price) AS top, date_bin('10 seconds', ts, TIMESTAMP '1970-01-01') AS ws, date_bin('10 seconds', ts, TIMESTAMP '1970-01-01') + INTERVAL '10 seconds' AS we
            FROM bid WHERE ts IS NOT NULL GROUP BY bidder, 4, 5`,
      cols: ['bidder', 'n', 'top', 'ws', 'we'],
    },
    tumble_offset: {
      sql: `SELECT SUM(price) AS total, date_bin('1 minute', ts, TIMESTAMP '1970-01-01 00:00:15') AS ws
            FROM bid WHERE price > 10 AND ts IS NOT NULL GROUP BY 2 HAVING COUNT(*) > 1`,
      cols: ['total', 'ws'],
    },
    hop_counts: {
      sql: `SELECT auction, COUNT(*) AS n, w.ws, w.ws + INTERVAL '10 seconds' AS we
            FROM bid, LATERAL (SELECT date_bin('2 seconds', ts, TIMESTAMP '1970-01-01') - k * INTERVAL '2 seconds' AS ws FROM generate_series(0, 4) AS k) w
            WHERE ts IS NOT NULL GROUP BY auction, w.ws`,
      cols: ['auction', 'n', 'ws', 'we'],
    },
  };

  it('each step, the views hold what Postgres computes from the table', async () => {
    const c = prog(VIEWS).newCircuit();
    const next = rng(7);
    const live: JsonRow[] = [];
    for (let step = 0; step < 6; step++) {
      const changes: InputChange[] = [];
      for (let i = 0; i < 150; i++) {
        if (live.length > 10 && next() < 0.25) {
          const [row] = live.splice(Math.floor(next() * live.length), 1);
          changes.push({ table: 'bid', op: 'delete', row: row! });
          continue;
        }
        const row: JsonRow = {
          auction: Math.floor(next() * 5),
          bidder: Math.floor(next() * 4),
          price: Math.floor(next() * 40),
          ts: next() < 0.05 ? null : tsText(BASE + Math.floor(next() * 120_000) + (next() < 0.3 ? 0 : Math.floor(next() * 1000))),
        };
        live.push(row);
        changes.push({ table: 'bid', op: 'insert', row });
      }
      c.step(changes);
      await pg.exec('DELETE FROM bid');
      if (live.length) await pg.query(`INSERT INTO bid SELECT * FROM json_populate_recordset(NULL::bid, $1)`, [JSON.stringify(live)]);
      for (const [view, q] of Object.entries(PG)) {
        const res = await pg.query<Record<string, unknown>>(q.sql);
        const expected = res.rows.map((r) => q.cols.map((col) => norm(r[col], res.fields.find((f) => f.name === col)?.dataTypeID)).join(' | ')).sort();
        expect(rowsOf(c.contents(view), q.cols), `${view} after step ${step}`).toEqual(expected);
        if (step === 5) expect(expected.length).toBeGreaterThan(2);
      }
    }
  }, 60_000);
});

describe('GROUP BY TUMBLE / HOP', () => {
  const ins = (auction: number, ts: string | null, price = 1): InputChange => ({ table: 'bid', op: 'insert', row: { auction, bidder: 1, price, ts } });

  it('gives what the TABLE(TUMBLE(...)) and TABLE(HOP(...)) forms give', () => {
    const c = prog(`
CREATE VIEW g AS SELECT auction, COUNT(*) AS n, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS e FROM bid GROUP BY auction, TUMBLE(ts, INTERVAL '1' MINUTE);
CREATE VIEW t AS SELECT auction, COUNT(*) AS n, window_end AS e FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY auction, window_end;
CREATE VIEW hg AS SELECT COUNT(*) AS n, HOP_START(ts, INTERVAL '30' SECOND, INTERVAL '1' MINUTE) AS s FROM bid GROUP BY HOP(ts, INTERVAL '30' SECOND, INTERVAL '1' MINUTE);
CREATE VIEW ht AS SELECT COUNT(*) AS n, window_start AS s FROM TABLE(HOP(TABLE bid, DESCRIPTOR(ts), INTERVAL '30' SECOND, INTERVAL '1' MINUTE)) GROUP BY window_start;
`).newCircuit();
    c.step([ins(1, '2024-01-01 10:00:00'), ins(1, '2024-01-01 10:00:59'), ins(1, '2024-01-01 10:01:00'), ins(2, '2024-01-01 10:00:30'), ins(2, null)]);
    const cols = ['auction', 'n', 'e'];
    expect(rowsOf(c.contents('g'), cols)).toEqual(rowsOf(c.contents('t'), cols));
    expect(rowsOf(c.contents('g'), cols)).toEqual(['1 | 1 | 2024-01-01 10:02:00', '1 | 2 | 2024-01-01 10:01:00', '2 | 1 | 2024-01-01 10:01:00']);
    expect(rowsOf(c.contents('hg'), ['n', 's'])).toEqual(rowsOf(c.contents('ht'), ['n', 's']));
    // 10:00:00 is in the windows starting 09:59:30 and 10:00:00; 10:00:30 and 10:00:59 in those of 10:00:00 and
    // 10:00:30; 10:01:00 in those of 10:00:30 and 10:01:00
    expect(rowsOf(c.contents('hg'), ['n', 's'])).toEqual(['1 | 2024-01-01 09:59:30', '1 | 2024-01-01 10:01:00', '3 | 2024-01-01 10:00:00', '3 | 2024-01-01 10:00:30']);
  });

  it('the window bounds are TIMESTAMP NOT NULL columns of the view', () => {
    const p = prog(`CREATE VIEW v AS SELECT TUMBLE_START(ts, INTERVAL 1 HOUR) AS s, TUMBLE_END(ts, INTERVAL 1 HOUR) AS e, COUNT(*) AS n FROM bid GROUP BY TUMBLE(ts, INTERVAL 1 HOUR)`);
    const cols = p.relation('v')!.columns;
    expect(cols.slice(0, 2).map((f) => [f.name, f.type, f.nullable])).toEqual([
      ['s', 'TIMESTAMP', false],
      ['e', 'TIMESTAMP', false],
    ]);
  });

  it('with LATENESS, the groups of windows behind the watermark leave the aggregate state; their rows stay', () => {
    const view = `CREATE VIEW v AS SELECT COUNT(*) AS n, TUMBLE_START(ts, INTERVAL '10' SECOND) AS s FROM bid GROUP BY TUMBLE(ts, INTERVAL '10' SECOND);`;
    const late = prog(view, "CREATE TABLE bid (auction INT, bidder INT, price INT, ts TIMESTAMP NOT NULL LATENESS INTERVAL '5' SECOND);").newCircuit();
    const kept = prog(view, 'CREATE TABLE bid (auction INT, bidder INT, price INT, ts TIMESTAMP NOT NULL);').newCircuit();
    for (let s = 0; s < 50; s++) {
      const changes = [ins(1, tsText(BASE + s * 10_000)), ins(2, tsText(BASE + s * 10_000 + 3_000))];
      late.step(changes);
      kept.step(changes);
    }
    for (const c of [late, kept]) {
      expect(c.contents('v')).toHaveLength(50);
      expect(c.contents('v').every((r) => r.row.n === 2)).toBe(true);
    }
    // both keep the table's 100 rows; without LATENESS the aggregate also keeps 50 groups, with it at most 2
    expect(kept.stateSize() - late.stateSize()).toBeGreaterThanOrEqual(48);
  });

  it("a window bound carries the time column's watermark: emit_final outputs each window once, when closed", () => {
    const c = prog(
      `CREATE VIEW v WITH ('emit_final' = 'e') AS SELECT COUNT(*) AS n, TUMBLE_END(ts, INTERVAL '10' SECOND) AS e FROM bid GROUP BY TUMBLE(ts, INTERVAL '10' SECOND);`,
      "CREATE TABLE bid (auction INT, bidder INT, price INT, ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' SECOND);",
    ).newCircuit();
    const seen: string[] = [];
    for (let s = 0; s < 5; s++) {
      const out = c.step([ins(1, tsText(BASE + s * 4_000)), ins(2, tsText(BASE + s * 4_000 + 1_000))]).changes.get('v') ?? [];
      for (const r of out) seen.push(`${r.weight} ${String(r.row.n)} ${String(r.row.e)}`);
    }
    // rows at 0, 1, 4, 5, 8, 9 s fill the first window; it is final once the watermark (latest - 1 s) passes 10 s
    expect(seen).toEqual(['1 6 2024-03-01 00:00:10']);
  });

  it('refuses a bound function without its window, with other arguments, and two windows', () => {
    expect(errorsOf('CREATE VIEW v AS SELECT TUMBLE_END(ts, INTERVAL 1 MINUTE) FROM bid;')).toEqual(['TUMBLE_END can only be used in a query with GROUP BY TUMBLE(...)']);
    expect(errorsOf('CREATE VIEW v AS SELECT TUMBLE_END(ts, INTERVAL 2 MINUTE) AS e FROM bid GROUP BY TUMBLE(ts, INTERVAL 1 MINUTE);')).toEqual([
      'TUMBLE_END must have the arguments of the GROUP BY TUMBLE(...)',
    ]);
    expect(errorsOf('CREATE VIEW v AS SELECT HOP_END(ts, INTERVAL 1 MINUTE, INTERVAL 2 MINUTE) AS e FROM bid GROUP BY TUMBLE(ts, INTERVAL 1 MINUTE);')).toEqual([
      'HOP_END must have the arguments of the GROUP BY TUMBLE(...)',
    ]);
    expect(errorsOf('CREATE VIEW v AS SELECT COUNT(*) AS n FROM bid GROUP BY TUMBLE(ts, INTERVAL 1 MINUTE), HOP(ts, INTERVAL 1 MINUTE, INTERVAL 2 MINUTE);')).toEqual([
      'Only one group window (TUMBLE or HOP) is allowed in a GROUP BY',
    ]);
    expect(errorsOf('CREATE VIEW v AS SELECT COUNT(*) AS n FROM bid GROUP BY TUMBLE(price, INTERVAL 1 MINUTE);')).toEqual(['TUMBLE in GROUP BY needs a TIMESTAMP column, not INTEGER']);
    expect(errorsOf("CREATE VIEW v AS SELECT COUNT(*) AS n FROM bid GROUP BY TUMBLE(ts, INTERVAL '0' SECOND);")).toEqual(['TUMBLE size must be positive']);
    expect(errorsOf('CREATE VIEW v AS SELECT COUNT(*) AS n FROM bid GROUP BY HOP(ts, INTERVAL 1 MINUTE);')).toEqual(['HOP needs a window size']);
  });
});

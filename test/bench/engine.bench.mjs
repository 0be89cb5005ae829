// Incremental SQL engine benchmark. Every figure is a ratio against a baseline measured in this run:
//  1. single-row updates to a join + GROUP BY view at 10k / 100k / 1M base rows (us per update; 1M vs 10k <= 3x,
//     target <= 30 us at 100k);
//  2. the same view recomputed by DuckDB after each update at 100k rows (target: engine >= 300x faster);
//     @duckdb/node-api is a dev dependency (its lock entries for other platforms are written by hand, as this
//     registry serves only the linux bindings); without it the engine's own batch re-evaluation is the baseline;
//  3. throughput of a filter/project view fed batched JSON rows vs the bare JSON.parse rate (target >= 0.4);
//  4. heap bytes per base row at 1M rows.
//  5. a 5-table comma join and a correlated-subquery view under single-row updates vs DuckDB recomputing them.
//  7. a 5-table explicit JOIN chain written in a bad order (as written: two cross products first) vs the same
//     chain written in its key order, under single-row updates (target: near 1x).
// BENCH_QUICK=1: 1k/10k/30k rows, fewer updates.
import { compile } from '../../dist/engine/index.js';

const QUICK = !!process.env.BENCH_QUICK;
const SIZES = QUICK ? [1_000, 10_000, 30_000] : [10_000, 100_000, 1_000_000];
const MID = QUICK ? 10_000 : 100_000;
const UPDATES = QUICK ? 2_000 : 20_000;

let seed = 42;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const ri = (n) => Math.floor(rnd() * n);

const PROGRAM = `
CREATE TABLE part (id INT NOT NULL PRIMARY KEY, name VARCHAR, cat INT);
CREATE TABLE price (id INT NOT NULL PRIMARY KEY, part INT, vendor INT, price DECIMAL(10, 2));
CREATE VIEW by_cat AS
  SELECT part.cat, COUNT(*) AS n, SUM(price.price) AS total
  FROM price JOIN part ON price.part = part.id
  GROUP BY part.cat;
`;

function load(n) {
  const r = compile(PROGRAM);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const c = r.program.newCircuit();
  const parts = Math.max(10, Math.floor(n / 10));
  for (let i = 0; i < parts; i += 10_000) {
    const batch = [];
    for (let j = i; j < Math.min(parts, i + 10_000); j++) batch.push({ table: 'part', op: 'insert', row: { id: j, name: 'p' + j, cat: j % 100 } });
    c.step(batch);
  }
  for (let i = 0; i < n; i += 10_000) {
    const batch = [];
    for (let j = i; j < Math.min(n, i + 10_000); j++) batch.push({ table: 'price', op: 'insert', row: { id: j, part: ri(parts), vendor: ri(50), price: (ri(100000) / 100).toFixed(2) } });
    c.step(batch);
  }
  return { c, parts };
}

function updates(c, n, parts, count) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    c.step([{ table: 'price', op: 'insert', row: { id: ri(n), part: ri(parts), vendor: ri(50), price: (ri(100000) / 100).toFixed(2) } }]);
  }
  return Number(process.hrtime.bigint() - t0) / 1e3 / count;
}

const fmt = (x, d = 1) => x.toFixed(d);
const results = {};
// warm-up (JIT) on a small instance so that the first measured size is not penalised
{
  const { c, parts } = load(5_000);
  updates(c, 5_000, parts, QUICK ? 2_000 : 10_000);
}
console.log(`engine: join + GROUP BY view, single-row updates (best of 5 rounds of ${UPDATES / 5} per size, after ${UPDATES / 10} warm-up)`);
let heapPerRow;
for (const n of SIZES) {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const { c, parts } = load(n);
  globalThis.gc?.();
  const after = process.memoryUsage().heapUsed;
  if (n === SIZES[SIZES.length - 1]) heapPerRow = (after - before) / (n + parts);
  updates(c, n, parts, UPDATES / 10);
  // best of 5 rounds: the machine is shared, the minimum is the least disturbed figure
  let us = Infinity;
  for (let round = 0; round < 5; round++) us = Math.min(us, updates(c, n, parts, UPDATES / 5));
  results[n] = { us, c, parts };
  console.log(`  ${String(n).padStart(9)} base rows: ${fmt(us, 2).padStart(7)} us/update`);
}
const small = results[SIZES[0]].us;
const large = results[SIZES[SIZES.length - 1]].us;
const ratio = large / small;
console.log(`  size sensitivity: ${SIZES[SIZES.length - 1]} vs ${SIZES[0]} rows = ${fmt(ratio, 2)}x (target <= 3x: ${ratio <= 3 ? 'met' : 'NOT met'})`);
const mid = results[MID].us;
console.log(`  at ${MID} rows: ${fmt(mid, 2)} us/update (target <= 30 us: ${mid <= 30 ? 'met' : 'NOT met'})`);
console.log(`  heap: ${fmt(heapPerRow, 0)} bytes per base row at ${SIZES[SIZES.length - 1]} rows (both tables' rows, all operator state and view contents)`);
for (const n of SIZES) if (n !== MID) delete results[n].c;

// ---- context: the same view maintained by a hand-written, single-purpose incremental program (no SQL,
// no generality) at the middle size: shows the engine's overhead and how loaded the machine is.
{
  const n = MID;
  const parts = Math.max(10, Math.floor(n / 10));
  const partCat = new Map();
  for (let j = 0; j < parts; j++) partCat.set(j, j % 100);
  const price = new Map();
  const groups = new Map();
  const apply = (row, w) => {
    const cat = partCat.get(row.part);
    let g = groups.get(cat);
    if (!g) groups.set(cat, (g = { n: 0, s: 0n }));
    g.n += w;
    g.s += BigInt(Math.round(parseFloat(row.price) * 100)) * BigInt(w);
  };
  for (let j = 0; j < n; j++) {
    const r = { id: j, part: ri(parts), vendor: ri(50), price: (ri(100000) / 100).toFixed(2) };
    price.set(j, r);
    apply(r, 1);
  }
  let us = Infinity;
  for (let round = 0; round < 5; round++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < UPDATES / 5; i++) {
      const r = { id: ri(n), part: ri(parts), vendor: ri(50), price: (ri(100000) / 100).toFixed(2) };
      const old = price.get(r.id);
      const g = groups.get(partCat.get(r.part));
      const before = g ? { n: g.n, s: g.s } : undefined;
      if (old) apply(old, -1);
      price.set(r.id, r);
      apply(r, 1);
      if (!before) throw new Error('unreachable');
    }
    us = Math.min(us, Number(process.hrtime.bigint() - t0) / 1e3 / (UPDATES / 5));
  }
  console.log(`hand-written single-purpose incremental program at ${n} rows: ${fmt(us, 2)} us/update; the engine costs ${fmt(mid / us, 1)}x that`);
}

// ---- 2. recompute baseline
let duck;
try {
  duck = await import('@duckdb/node-api');
} catch {
  duck = undefined;
}
{
  const n = MID;
  const parts = Math.max(10, Math.floor(n / 10));
  if (duck) {
    const inst = await duck.DuckDBInstance.create(':memory:');
    const con = await inst.connect();
    await con.run('CREATE TABLE part (id INT PRIMARY KEY, name VARCHAR, cat INT)');
    await con.run('CREATE TABLE price (id INT PRIMARY KEY, part INT, vendor INT, price DECIMAL(10,2))');
    await con.run(`INSERT INTO part SELECT i, 'p' || i, i % 100 FROM range(${parts}) t(i)`);
    await con.run(`INSERT INTO price SELECT i, (random() * ${parts})::INT % ${parts}, (random() * 50)::INT, round(random() * 1000, 2) FROM range(${n}) t(i)`);
    const q = 'SELECT part.cat, COUNT(*) AS n, SUM(price.price) AS total FROM price JOIN part ON price.part = part.id GROUP BY part.cat';
    const reps = QUICK ? 20 : 50;
    const one = async () => {
      await con.run(`UPDATE price SET part = ${ri(parts)}, price = ${(ri(100000) / 100).toFixed(2)} WHERE id = ${ri(n)}`);
      await con.runAndReadAll(q);
    };
    for (let i = 0; i < 3; i++) await one();
    let us = Infinity;
    for (let round = 0; round < 3; round++) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < reps; i++) await one();
      us = Math.min(us, Number(process.hrtime.bigint() - t0) / 1e3 / reps);
    }
    const r = us / mid;
    console.log(`DuckDB (@duckdb/node-api) update + recompute at ${n} rows: ${fmt(us / 1000, 2)} ms/update; engine is ${fmt(r, 0)}x faster (target >= 300x: ${r >= 300 ? 'met' : 'NOT met'})`);
  } else {
    console.log("@duckdb/node-api is not installed: using the engine's own batch re-evaluation as the recompute baseline");
  }
  // in-house batch re-evaluation: a fresh circuit loaded with the same rows
  const t0 = process.hrtime.bigint();
  load(n);
  const us = Number(process.hrtime.bigint() - t0) / 1e3;
  console.log(`in-house batch re-evaluation at ${n} rows: ${fmt(us / 1000, 1)} ms; incremental update is ${fmt(us / mid, 0)}x faster`);
}

// ---- 3. throughput: filter/project view fed batched JSON rows vs JSON.parse alone
{
  const rows = QUICK ? 100_000 : 1_000_000;
  const lines = [];
  for (let i = 0; i < rows; i++) lines.push(JSON.stringify({ insert: { id: i, name: 'x' + (i % 1000), price: (ri(100000) / 100).toFixed(2), qty: ri(100) } }));
  const r = compile(`CREATE TABLE item (id BIGINT NOT NULL, name VARCHAR, price DECIMAL(10,2), qty INT);
CREATE VIEW expensive AS SELECT id, name, price FROM item WHERE qty > 50;`);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const BATCH = 10_000;
  const parseOnly = () => {
    const t0 = process.hrtime.bigint();
    for (const l of lines) if (JSON.parse(l).insert.id < 0) throw new Error('a negative id');
    return Number(process.hrtime.bigint() - t0) / 1e9;
  };
  const engine = () => {
    const c = r.program.newCircuit();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < lines.length; i += BATCH) {
      const batch = [];
      for (let j = i; j < Math.min(lines.length, i + BATCH); j++) batch.push({ table: 'item', op: 'insert', row: JSON.parse(lines[j]).insert });
      // read the view's changes as a watcher would (a table's own changes are formatted only when read)
      if (!c.step(batch).changes.get('EXPENSIVE')) throw new Error('the view did not change');
    }
    return Number(process.hrtime.bigint() - t0) / 1e9;
  };
  parseOnly();
  engine();
  // alternate the two so that both see the same machine; the median of the per-round ratios
  const rounds = [];
  for (let k = 0; k < (QUICK ? 5 : 7); k++) {
    const tp = parseOnly();
    const te = engine();
    rounds.push({ tp, te, frac: tp / te });
  }
  rounds.sort((a, b) => a.frac - b.frac);
  const { tp, te, frac } = rounds[rounds.length >> 1];
  const spread = `${fmt(rounds[0].frac, 2)}..${fmt(rounds[rounds.length - 1].frac, 2)}`;
  console.log(
    `throughput: filter/project view, batches of ${BATCH} JSON rows: ${fmt(rows / te / 1000, 0)} k rows/s vs JSON.parse alone ${fmt(rows / tp / 1000, 0)} k rows/s = ${fmt(frac, 2)} of the ceiling (median of ${rounds.length} rounds, range ${spread}; target >= 0.4: ${frac >= 0.4 ? 'met' : 'NOT met'})`,
  );
}

// ---- context: top 3 per partition (ROW_NUMBER ... WHERE rn <= 3), single-row updates, incremental top-k vs
// the same ranks evaluated per touched partition (the ranked view is also an output, so it is read in full)
{
  const n = MID;
  const partitions = 10;
  const prog = (sql) => {
    const r = compile(`CREATE TABLE score (id INT NOT NULL PRIMARY KEY, grp INT, pts INT);\n${sql}`);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return r.program.newCircuit();
  };
  const ranked = 'SELECT id, grp, pts, ROW_NUMBER() OVER (PARTITION BY grp ORDER BY pts DESC) AS rn FROM score';
  const topk = prog(`CREATE VIEW top3 AS SELECT * FROM (${ranked}) q WHERE rn <= 3;`);
  const full = prog(`CREATE VIEW ranked AS ${ranked};\nCREATE VIEW top3 AS SELECT * FROM ranked WHERE rn <= 3;`);
  const perUpdate = (c) => {
    for (let i = 0; i < n; i += 10_000) {
      const batch = [];
      for (let j = i; j < Math.min(n, i + 10_000); j++) batch.push({ table: 'score', op: 'insert', row: { id: j, grp: j % partitions, pts: ri(1_000_000) } });
      c.step(batch);
    }
    const count = QUICK ? 50 : 200;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < count; i++) c.step([{ table: 'score', op: 'insert', row: { id: ri(n), grp: ri(partitions), pts: ri(1_000_000) } }]);
    return Number(process.hrtime.bigint() - t0) / 1e3 / count;
  };
  const a = perUpdate(topk);
  const b = perUpdate(full);
  console.log(
    `top 3 per partition at ${n} rows in ${partitions} partitions: ${fmt(a, 1)} us/update with the incremental top-k vs ${fmt(b, 0)} us re-evaluating the touched partitions (${fmt(b / a, 0)}x)`,
  );
}

// ---- 5. a 5-table comma join (FROM in an order the planner must fix) and a correlated-subquery view under
// single-row updates, each vs DuckDB applying the same update and recomputing the view
{
  const n = MID;
  const small = Math.max(10, Math.floor(n / 10));
  const cases = [
    {
      name: '5-table comma join + GROUP BY',
      tables: [
        'CREATE TABLE fa (id INT NOT NULL PRIMARY KEY, b_id INT, v INT)',
        'CREATE TABLE fb (id INT NOT NULL PRIMARY KEY, c_id INT)',
        'CREATE TABLE fc (id INT NOT NULL PRIMARY KEY, d_id INT)',
        'CREATE TABLE fd (id INT NOT NULL PRIMARY KEY, e_id INT)',
        'CREATE TABLE fe (id INT NOT NULL PRIMARY KEY, w INT)',
      ],
      view: 'SELECT fe.w, COUNT(*) AS n, SUM(fa.v) AS s FROM fe, fa, fc, fb, fd WHERE fa.b_id = fb.id AND fb.c_id = fc.id AND fc.d_id = fd.id AND fd.e_id = fe.id GROUP BY fe.w',
      rows: () => [
        ...Array.from({ length: n }, (_, i) => ['fa', { id: i, b_id: ri(small), v: ri(1000) }]),
        ...Array.from({ length: small }, (_, i) => ['fb', { id: i, c_id: ri(small) }]),
        ...Array.from({ length: small }, (_, i) => ['fc', { id: i, d_id: ri(small) }]),
        ...Array.from({ length: small }, (_, i) => ['fd', { id: i, e_id: ri(small) }]),
        ...Array.from({ length: small }, (_, i) => ['fe', { id: i, w: i % 100 }]),
      ],
      update: () => ['fa', { id: ri(n), b_id: ri(small), v: ri(1000) }],
    },
    {
      name: 'correlated scalar subquery (rows above their group average)',
      tables: ['CREATE TABLE item (id INT NOT NULL PRIMARY KEY, grp INT, v INT)'],
      view: 'SELECT i.id, i.v FROM item i WHERE i.v > (SELECT AVG(x.v) FROM item x WHERE x.grp = i.grp)',
      rows: () => Array.from({ length: n }, (_, i) => ['item', { id: i, grp: ri(small), v: ri(1000) }]),
      update: () => ['item', { id: ri(n), grp: ri(small), v: ri(1000) }],
    },
  ];
  for (const cs of cases) {
    const r = compile(`${cs.tables.join(';\n')};\nCREATE VIEW bench_view AS ${cs.view};`);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    const rows = cs.rows();
    for (let i = 0; i < rows.length; i += 10_000) c.step(rows.slice(i, i + 10_000).map(([table, row]) => ({ table, op: 'insert', row })));
    const count = QUICK ? 500 : 2_000;
    const ups = Array.from({ length: count * 6 }, cs.update);
    let k = 0;
    for (let i = 0; i < count; i++) c.step([{ table: ups[k][0], op: 'upsert', row: ups[k++][1] }]);
    let us = Infinity;
    for (let round = 0; round < 5; round++) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < count; i++) c.step([{ table: ups[k][0], op: 'upsert', row: ups[k++][1] }]);
      us = Math.min(us, Number(process.hrtime.bigint() - t0) / 1e3 / count);
    }
    let line = `${cs.name} at ${n} rows: ${fmt(us, 1)} us/update`;
    if (duck) {
      const inst = await duck.DuckDBInstance.create(':memory:');
      const con = await inst.connect();
      for (const t of cs.tables) await con.run(t.replace(/ NOT NULL PRIMARY KEY/g, ' PRIMARY KEY'));
      const byTable = new Map();
      for (const [table, row] of rows) {
        if (!byTable.has(table)) byTable.set(table, []);
        byTable.get(table).push(row);
      }
      for (const [table, list] of byTable) {
        const cols = Object.keys(list[0]);
        for (let i = 0; i < list.length; i += 5_000)
          await con.run(
            `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${list
              .slice(i, i + 5_000)
              .map((row) => `(${cols.map((col) => row[col]).join(', ')})`)
              .join(', ')}`,
          );
      }
      const reps = QUICK ? 10 : 20;
      const one = async () => {
        const [table, row] = cs.update();
        const cols = Object.keys(row).filter((col) => col !== 'id');
        await con.run(`UPDATE ${table} SET ${cols.map((col) => `${col} = ${row[col]}`).join(', ')} WHERE id = ${row.id}`);
        await con.runAndReadAll(cs.view);
      };
      for (let i = 0; i < 3; i++) await one();
      let dus = Infinity;
      for (let round = 0; round < 3; round++) {
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < reps; i++) await one();
        dus = Math.min(dus, Number(process.hrtime.bigint() - t0) / 1e3 / reps);
      }
      line += `; DuckDB update + recompute ${fmt(dus / 1000, 2)} ms/update; engine is ${fmt(dus / us, 0)}x faster`;
    }
    console.log(line);
  }
}

// ---- 6. checked integer arithmetic (exact 64-bit, overflow refuses the step): single-row updates to a view
// computing SUM(price * 3 + vendor - 1) and a BIGINT product vs the same view summing the bare column, at the
// middle size; the ratio is the cost of the checked operations. Then one refused step (an overflowing row):
// its cost (the operators are rebuilt from the tables) against a single-row update.
{
  const n = MID;
  const plain = `CREATE TABLE p (id INT NOT NULL PRIMARY KEY, g INT, price INT, vendor INT);
CREATE VIEW s AS SELECT g, SUM(price) AS a, SUM(vendor) AS b FROM p GROUP BY g;`;
  const arith = `CREATE TABLE p (id INT NOT NULL PRIMARY KEY, g INT, price INT, vendor INT);
CREATE VIEW s AS SELECT g, SUM(price * 3 + vendor - 1) AS a, SUM(CAST(price AS BIGINT) * 1000000 * vendor) AS b FROM p GROUP BY g;`;
  const build = (sql) => {
    const r = compile(sql);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    for (let i = 0; i < n; i += 10_000) {
      const batch = [];
      for (let j = i; j < Math.min(n, i + 10_000); j++) batch.push({ table: 'p', op: 'insert', row: { id: j, g: j % 1000, price: ri(100000), vendor: ri(50) } });
      c.step(batch);
    }
    return c;
  };
  const run = (c, count) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < count; i++) c.step([{ table: 'p', op: 'insert', row: { id: ri(n), g: ri(1000), price: ri(100000), vendor: ri(50) } }]);
    return Number(process.hrtime.bigint() - t0) / 1e3 / count;
  };
  const cp = build(plain);
  const ca = build(arith);
  run(cp, UPDATES / 10);
  run(ca, UPDATES / 10);
  let usPlain = Infinity;
  let usArith = Infinity;
  for (let round = 0; round < 5; round++) {
    usPlain = Math.min(usPlain, run(cp, UPDATES / 5));
    usArith = Math.min(usArith, run(ca, UPDATES / 5));
  }
  const t0 = process.hrtime.bigint();
  let refused = false;
  try {
    ca.step([{ table: 'p', op: 'insert', row: { id: 0, g: 0, price: 2147483647, vendor: 1 } }]);
  } catch (e) {
    refused = e?.name === 'EngineStepError';
  }
  const refusedMs = Number(process.hrtime.bigint() - t0) / 1e6;
  console.log(
    `checked integer arithmetic at ${n} rows: ${fmt(usArith, 2)} us/update vs ${fmt(usPlain, 2)} us summing the bare columns = ${fmt(usArith / usPlain, 2)}x; ` +
      `a refused (overflowing) step: ${refused ? `${fmt(refusedMs, 1)} ms = ${fmt((refusedMs * 1000) / usArith, 0)}x a single-row update (the operators are rebuilt from the tables)` : 'NOT refused'}`,
  );
}

// ---- 7. a 5-table explicit JOIN ... ON chain written in a bad order vs the same chain in its key order, under
// single-row updates (mostly to the big table, some to the small ones); rounds alternate, median ratio
{
  const n = MID;
  const small = Math.max(10, Math.floor(n / 10));
  const tables = [
    'CREATE TABLE fa (id INT NOT NULL PRIMARY KEY, b_id INT, v INT)',
    'CREATE TABLE fb (id INT NOT NULL PRIMARY KEY, c_id INT)',
    'CREATE TABLE fc (id INT NOT NULL PRIMARY KEY, d_id INT)',
    'CREATE TABLE fd (id INT NOT NULL PRIMARY KEY, e_id INT)',
    'CREATE TABLE fe (id INT NOT NULL PRIMARY KEY, w INT)',
  ].join(';\n');
  const select = 'SELECT fe.w, COUNT(*) AS n, SUM(fa.v) AS s';
  const good = `${select} FROM fa JOIN fb ON fa.b_id = fb.id JOIN fc ON fb.c_id = fc.id JOIN fd ON fc.d_id = fd.id JOIN fe ON fd.e_id = fe.id GROUP BY fe.w`;
  // as written: fe x fa x fc before any key (10^4 x 10^5 x 10^4 rows at 100k)
  const bad = `${select} FROM fe JOIN fa ON fa.v >= 0 JOIN fc ON fc.d_id >= 0 JOIN fb ON fa.b_id = fb.id AND fb.c_id = fc.id JOIN fd ON fc.d_id = fd.id AND fd.e_id = fe.id GROUP BY fe.w`;
  const rows = [
    ...Array.from({ length: n }, (_, i) => ['fa', { id: i, b_id: ri(small), v: ri(1000) }]),
    ...['fb', 'fc', 'fd'].flatMap((t) => Array.from({ length: small }, (_, i) => [t, { id: i, [`${String.fromCharCode(t.charCodeAt(1) + 1)}_id`]: ri(small) }])),
    ...Array.from({ length: small }, (_, i) => ['fe', { id: i, w: i % 100 }]),
  ];
  const update = () => {
    const t = ri(10);
    if (t < 6) return ['fa', { id: ri(n), b_id: ri(small), v: ri(1000) }];
    if (t === 9) return ['fe', { id: ri(small), w: ri(100) }];
    const name = ['fb', 'fc', 'fd'][t - 6];
    return [name, { id: ri(small), [`${String.fromCharCode(name.charCodeAt(1) + 1)}_id`]: ri(small) }];
  };
  const circuit = (view) => {
    const r = compile(`${tables};\nCREATE VIEW bench_view AS ${view};`);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    for (let i = 0; i < rows.length; i += 10_000) c.step(rows.slice(i, i + 10_000).map(([table, row]) => ({ table, op: 'insert', row })));
    return c;
  };
  const t0 = process.hrtime.bigint();
  const cGood = circuit(good);
  const loadGood = Number(process.hrtime.bigint() - t0) / 1e6;
  const t1 = process.hrtime.bigint();
  const cBad = circuit(bad);
  const loadBad = Number(process.hrtime.bigint() - t1) / 1e6;
  const count = QUICK ? 1_000 : 5_000;
  const ups = Array.from({ length: count }, update);
  const run = (c) => {
    const t = process.hrtime.bigint();
    for (const [table, row] of ups) c.step([{ table, op: 'upsert', row }]);
    return Number(process.hrtime.bigint() - t) / 1e3 / count;
  };
  run(cGood);
  run(cBad);
  const rounds = [];
  for (let k = 0; k < 7; k++) {
    const g = run(cGood);
    const b = run(cBad);
    rounds.push({ g, b, ratio: b / g });
  }
  rounds.sort((x, y) => x.ratio - y.ratio);
  const { g, b, ratio } = rounds[rounds.length >> 1];
  const same =
    JSON.stringify(
      cGood
        .contents('bench_view')
        .map((r) => r.row)
        .sort((x, y) => x.W - y.W),
    ) ===
    JSON.stringify(
      cBad
        .contents('bench_view')
        .map((r) => r.row)
        .sort((x, y) => x.W - y.W),
    );
  console.log(
    `5-table JOIN chain at ${n} rows, written in a bad order vs in key order: ${fmt(b, 1)} vs ${fmt(g, 1)} us/update = ${fmt(ratio, 2)}x (median of ${rounds.length} rounds, range ${fmt(rounds[0].ratio, 2)}..${fmt(rounds[rounds.length - 1].ratio, 2)}; target near 1x: ${ratio <= 1.5 ? 'met' : 'NOT met'}); load ${fmt(loadBad, 0)} vs ${fmt(loadGood, 0)} ms; same rows: ${same}`,
  );
}

// Peak memory per input byte of a CSV ingress body of small rows (`1,xxxxxxxx\n`), 64 MiB (BENCH_QUICK:
// 8 MiB): the whole-body path the route took before (body Buffer -> string -> splitCsv records -> one
// change object per row; the baseline) against the incremental parser fed 64 KiB chunks as they would
// stream in, which keeps the request in the engine's compact RowBatch form (target <= 4 bytes/byte), and
// the whole request as a pipeline's worker runs it: that parser, then the engine step that converts the
// batch block by block into the table's rows, which the table keeps (its integrated contents).
// Each is measured in its own child process: peak RSS (the kernel's high-water mark) minus the RSS
// before the body, over the body's bytes. "Kept" is the heap still in use at the end, after a GC (the
// parsed request; for the whole request, the table's contents), so peak - kept is roughly the transient
// memory.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MIB = 1024 * 1024;
const SIZE = (process.env.BENCH_QUICK ? 8 : 64) * MIB;
const ROW = '1,xxxxxxxx\n';
const CHUNK = 64 * 1024;

async function child(mode, size) {
  const { TableBinding } = await import('../../dist/services/pipelines/worker/ingress/binding.js');
  const { compile } = await import('../../dist/engine/index.js');
  const { CsvParser, splitCsv } = await import('../../dist/services/pipelines/worker/ingress/csv.js');
  const program = compile('CREATE TABLE t (x INTEGER NOT NULL, y VARCHAR NOT NULL);').program;
  const binding = new TableBinding(program.tables[0], program.inputCodec('T'));
  // one 64 KiB chunk of whole rows, reused: the body is never held whole by the incremental path
  const chunk = Buffer.from(ROW.repeat(Math.floor(CHUNK / ROW.length)));
  const chunks = Math.floor(size / chunk.length);
  const bytes = chunks * chunk.length;
  global.gc();
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  const used0 = used();
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  let changes;
  let rows;
  let circuit = null;
  if (mode === 'step') circuit = program.newCircuit();
  if (mode === 'whole') {
    // as the route did: fastify's buffer of the body, its text, every record, then the changes
    let body = Buffer.alloc(bytes);
    for (let i = 0; i < chunks; i++) chunk.copy(body, i * chunk.length);
    let text = body.toString('utf8');
    let records = splitCsv(text).records;
    changes = [];
    const [cx, cy] = binding.codecs;
    for (const rec of records) changes.push(binding.change('insert', { X: cx.fromCsv(rec.fields[0], rec.quoted[0]), Y: cy.fromCsv(rec.fields[1], rec.quoted[1]) }));
    body = text = records = null; // what the request keeps from here on is its changes
    rows = changes.length;
  } else {
    const parser = new CsvParser(binding);
    for (let i = 0; i < chunks; i++) parser.push(new Uint8Array(chunk)); // a fresh copy, as a socket gives
    const parsed = parser.end();
    rows = parsed.count;
    if (circuit) {
      circuit.step(parsed.input);
      if (circuit.stateSize() < rows) throw new Error('the table did not keep the rows');
    } else changes = parsed.input; // the compact form the worker hands the step
  }
  const ms = performance.now() - t0;
  const peak = process.resourceUsage().maxRSS * 1024 - rss0;
  global.gc();
  const kept = used() - used0;
  if (rows !== chunks * Math.floor(CHUNK / ROW.length)) throw new Error(`wrong row count ${rows}`);
  void changes;
  void circuit;
  process.stdout.write(JSON.stringify({ bytes, rows, peak, kept, ms }));
}

function measure(mode) {
  const res = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=12000', fileURLToPath(import.meta.url), mode, String(SIZE)], { encoding: 'utf8' });
  if (res.status !== 0) return { error: (res.stderr || '').split('\n').filter((l) => /heap|memory|Error/.test(l))[0] ?? `exit ${res.status ?? res.signal}` };
  return JSON.parse(res.stdout);
}

if (process.argv[2]) {
  await child(process.argv[2], Number(process.argv[3]));
} else {
  console.log(`CSV ingress body of ${SIZE / MIB} MiB, rows '1,xxxxxxxx\\n' (${Math.floor(SIZE / ROW.length).toLocaleString('en-US')} rows)`);
  const whole = measure('whole');
  const chunked = measure('chunked');
  const step = measure('step');
  const line = (name, m) =>
    m.error
      ? `${name.padEnd(30)} failed: ${m.error}`
      : `${name.padEnd(30)} peak ${(m.peak / m.bytes).toFixed(1).padStart(5)} bytes/byte  kept ${(m.kept / m.bytes).toFixed(1).padStart(5)} bytes/byte  overhead ${((m.peak - m.kept) / m.bytes).toFixed(1).padStart(5)} bytes/byte  ${Math.round(m.ms)} ms`;
  console.log(line('whole body (baseline)', whole));
  console.log(line('64 KiB chunks (incremental)', chunked));
  console.log(line('+ engine step, table kept', step));
  if (!whole.error && !chunked.error)
    console.log(`parsed request peak memory: ${(chunked.peak / whole.peak).toFixed(2)}x the baseline; target <= 4 bytes/byte: ${chunked.peak / chunked.bytes <= 4 ? 'met' : 'NOT met'}`);
  if (!whole.error && !step.error)
    console.log(`whole request (parse + step + the table's contents): ${(step.peak / step.bytes).toFixed(1)} bytes/byte, ${(step.peak / whole.peak).toFixed(2)}x the baseline's parse alone`);
}

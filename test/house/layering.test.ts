/**
 * The shape of docs/architecture.md ("Layers and what each may import") kept by a test: which layer may import which, no service reaching into another's
 * insides, nothing importing the entry (main.ts), and no runtime import cycle (static or dynamic imports;
 * type-only imports are erased and do not count for cycles).
 */
import { describe, expect, test } from 'vitest';
import { importGraph, type Edge } from './imports.js';

/**
 * The pipeline service split as its processes are (docs/architecture.md): control/ and runner/ run in the server
 * process, worker/ in a pipeline's process or the compiler's, shared/ in both. What the server process loads must
 * not pull in the worker's modules or the engine (its compiler, the SQL parser's WebAssembly): control/, runner/
 * and the service's index.ts import nothing of worker/, and of the engine only types; shared/ imports nothing of
 * the three sides but types, and of the engine only types; worker/ imports control/ and runner/ only for types.
 */
const PIPELINES = 'services/pipelines/';

function pipelinePart(module: string): string | undefined {
  if (!module.startsWith(PIPELINES)) return undefined;
  const rest = module.slice(PIPELINES.length);
  return rest.includes('/') ? rest.split('/')[0] : 'index';
}

function breaksProcesses(edge: Edge): string | undefined {
  const from = pipelinePart(edge.from);
  if (!from) return undefined;
  const to = pipelinePart(edge.to);
  const serverSide = from === 'control' || from === 'runner' || from === 'index';
  if ((serverSide || from === 'shared') && edge.to.startsWith('engine/') && !edge.typeOnly) return `${edge.from} (${from}) loads the engine: ${edge.to} (import its types only)`;
  if (serverSide && to === 'worker') return `${edge.from} (${from}, server process) imports the worker's ${edge.to} (move what both need to shared/)`;
  if (from === 'shared' && (to === 'control' || to === 'runner' || to === 'worker') && !edge.typeOnly) return `${edge.from} (shared) loads ${edge.to} (${to})`;
  if (from === 'worker' && (to === 'control' || to === 'runner') && !edge.typeOnly) return `${edge.from} (worker) loads the server's ${edge.to}`;
  return undefined;
}

/** The layer of a module: its top folder under src/, or its file name for the files at the top. */
function layer(module: string): string {
  const [top] = module.split('/');
  return top!.replace(/\.ts$/, '');
}

/** Layers each layer may import (besides itself). */
const LAYERS: Record<string, readonly string[]> = {
  wire: [],
  engine: [],
  core: [],
  webhooks: ['core'],
  formats: ['core'],
  clients: ['core', 'webhooks', 'formats'],
  docs: ['core'],
  services: ['core', 'engine', 'webhooks', 'formats'],
  commands: ['core', 'clients', 'webhooks', 'docs', 'context'],
  context: ['core'],
  program: ['commands', 'core', 'context'],
  main: ['program', 'core', 'context'],
};

/** wire/ is the leaf every layer may import (the wire types that client and server share); it imports nothing of ours. */
const ALLOWED: Record<string, readonly string[]> = Object.fromEntries(Object.entries(LAYERS).map(([layer, may]) => [layer, layer === 'wire' ? may : [...may, 'wire']]));

/** Edges allowed beside the table, each with its reason. */
const EXCEPTIONS: readonly { from: string; to: string; why: string }[] = [
  { from: 'commands/completion/generate.ts', to: 'program.ts', why: 'the script that writes completions and the man page builds the whole tree; no command imports it' },
];

/** The three services: none may import another's modules (shared pieces live in services/*.ts or other folders). */
const SERVICES = new Set(['bookmarks', 'pipelines', 'notifications']);

function breaks(edge: Edge): string | undefined {
  const from = layer(edge.from);
  const to = layer(edge.to);
  if (edge.to === 'main.ts') return `${edge.from} imports the entry main.ts`;
  if (EXCEPTIONS.some((x) => x.from === edge.from && x.to === edge.to)) return undefined;
  if (from !== to) {
    // `ops serve` composes the services: commands/serve alone may import them
    const serve = edge.from.startsWith('commands/serve/') && to === 'services';
    if (!serve && !(ALLOWED[from] ?? []).includes(to)) return `${edge.from} (${from}) imports ${edge.to} (${to})`;
    return undefined;
  }
  if (from === 'services') {
    const a = edge.from.split('/');
    const b = edge.to.split('/');
    if (a.length > 2 && b.length > 2 && SERVICES.has(a[1]!) && SERVICES.has(b[1]!) && a[1] !== b[1]) return `${edge.from} reaches into another service: ${edge.to}`;
    // the route kit serves every service and knows none of them (each brings its fields and its error renderer)
    if (a[1] === 'kit' && b.length > 2 && SERVICES.has(b[1]!)) return `${edge.from} (the shared kit) imports a service: ${edge.to}`;
  }
  return undefined;
}

/** Cycles among runtime edges, each as the list of modules around it (Tarjan's strongly connected components). */
function runtimeCycles(edges: Edge[]): string[][] {
  return cycles(edges.filter((e) => !e.typeOnly));
}

/** Cycles among the edges given, type-only ones included. */
function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) (next.get(e.from) ?? next.set(e.from, []).get(e.from)!).push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let n = 0;
  const visit = (v: string) => {
    index.set(v, n);
    low.set(v, n++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (next.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return out;
}

const graph = importGraph();

describe('the shape of src/', () => {
  test('the graph is read (a check on the reader itself)', () => {
    expect(graph.modules.length).toBeGreaterThan(200);
    expect(graph.edges.length).toBeGreaterThan(800);
    expect(graph.edges).toContainEqual({ from: 'main.ts', to: 'program.ts', typeOnly: false, dynamic: true });
    expect(graph.edges).toContainEqual({ from: 'commands/registry.ts', to: 'commands/bm/index.ts', typeOnly: false, dynamic: true });
  });

  test('every import follows the layering', () => {
    expect(graph.edges.map(breaks).filter(Boolean)).toEqual([]);
  });

  test("the pipeline service's server side loads nothing of its worker side nor of the engine", () => {
    expect(graph.edges.map(breaksProcesses).filter(Boolean)).toEqual([]);
    // the folders are there (a check on the rule: a rename would leave it checking nothing)
    for (const part of ['control', 'runner', 'worker', 'shared']) expect(graph.modules.some((m) => m.startsWith(`${PIPELINES}${part}/`))).toBe(true);
  });

  test('no runtime import cycles', () => {
    expect(runtimeCycles(graph.edges)).toEqual([]);
  });

  test('no import cycles in the engine, type-only imports included (its compiler passes its binders and session down)', () => {
    const inEngine = graph.edges.filter((e) => e.from.startsWith('engine/') && e.to.startsWith('engine/'));
    expect(inEngine.length).toBeGreaterThan(500);
    expect(cycles(inEngine)).toEqual([]);
  });

  test('no import cycles anywhere in src, type-only imports included', () => {
    expect(cycles(graph.edges)).toEqual([]);
  });

  test('the rules catch what they are for', () => {
    const edge = (from: string, to: string): Edge => ({ from, to, typeOnly: false, dynamic: false });
    expect(breaks(edge('engine/circuit.ts', 'core/io.ts'))).toMatch(/imports/);
    expect(breaks(edge('clients/bookmarks.ts', 'services/server.ts'))).toMatch(/imports/);
    expect(breaks(edge('services/pipelines/control/manager.ts', 'commands/serve/run.ts'))).toMatch(/imports/);
    expect(breaks(edge('services/bookmarks/index.ts', 'services/notifications/store.ts'))).toMatch(/another service/);
    expect(breaks(edge('services/kit/route.ts', 'services/bookmarks/errors.ts'))).toMatch(/shared kit/);
    expect(breaks(edge('services/notifications/inputs.ts', 'services/kit/declare.ts'))).toBeUndefined();
    expect(breaks(edge('commands/bm/version.ts', 'main.ts'))).toMatch(/entry/);
    expect(breaks(edge('commands/serve/run.ts', 'services/server.ts'))).toBeUndefined();
    expect(breaks(edge('clients/bookmarks/records.ts', 'formats/csv.ts'))).toBeUndefined();
    expect(breaks(edge('services/pipelines/worker/ingress/csv.ts', 'formats/csv.ts'))).toBeUndefined();
    expect(breaks(edge('formats/csv.ts', 'clients/bookmarks/records.ts'))).toMatch(/imports/);
    expect(breaks(edge('formats/netscape.ts', 'services/bookmarks/html-events.ts'))).toMatch(/imports/);
    expect(breaks(edge('engine/api.ts', 'wire/pipelines.ts'))).toBeUndefined();
    expect(breaks(edge('clients/pipelines/types.ts', 'wire/pipelines.ts'))).toBeUndefined();
    expect(breaks(edge('wire/pipelines.ts', 'core/io.ts'))).toMatch(/imports/);
    const typeEdge = (from: string, to: string): Edge => ({ ...edge(from, to), typeOnly: true });
    expect(breaksProcesses(edge('services/pipelines/control/routes/io.ts', 'services/pipelines/worker/ingress/json.ts'))).toMatch(/server process/);
    expect(breaksProcesses(typeEdge('services/pipelines/runner/host.ts', 'services/pipelines/worker/runtime.ts'))).toMatch(/server process/);
    expect(breaksProcesses(edge('services/pipelines/index.ts', 'services/pipelines/worker/compiler.ts'))).toMatch(/server process/);
    expect(breaksProcesses(edge('services/pipelines/control/compile-jobs.ts', 'engine/index.ts'))).toMatch(/loads the engine/);
    expect(breaksProcesses(typeEdge('services/pipelines/control/compile-jobs.ts', 'engine/index.ts'))).toBeUndefined();
    expect(breaksProcesses(edge('services/pipelines/shared/names.ts', 'engine/index.ts'))).toMatch(/loads the engine/);
    expect(breaksProcesses(edge('services/pipelines/shared/protocol.ts', 'services/pipelines/worker/egress/encode.ts'))).toMatch(/shared/);
    expect(breaksProcesses(typeEdge('services/pipelines/shared/protocol.ts', 'services/pipelines/runner/logs.ts'))).toBeUndefined();
    expect(breaksProcesses(edge('services/pipelines/worker/runtime.ts', 'services/pipelines/runner/logs.ts'))).toMatch(/server's/);
    expect(breaksProcesses(edge('services/pipelines/worker/runtime.ts', 'engine/index.ts'))).toBeUndefined();
    expect(breaksProcesses(edge('services/pipelines/control/manager.ts', 'services/pipelines/runner/host.ts'))).toBeUndefined();
    expect(runtimeCycles([edge('a.ts', 'b.ts'), edge('b.ts', 'a.ts'), { ...edge('c.ts', 'd.ts'), typeOnly: true }, edge('d.ts', 'c.ts')])).toEqual([['a.ts', 'b.ts']]);
    expect(cycles([edge('a.ts', 'b.ts'), edge('b.ts', 'a.ts'), { ...edge('c.ts', 'd.ts'), typeOnly: true }, edge('d.ts', 'c.ts')])).toEqual([
      ['a.ts', 'b.ts'],
      ['c.ts', 'd.ts'],
    ]);
  });
});

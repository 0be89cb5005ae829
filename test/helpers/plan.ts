/**
 * Plans in tests: a view's plan as EXPLAIN-like text (plan/explain.ts) and that text read back as nodes, so a
 * test can assert a plan's shape (which kinds, which inputs) without depending on column lists or ids.
 */
import { bindProgram } from '../../src/engine/bind/program.js';
import { explain } from '../../src/engine/plan/explain.js';

/** The plan of `view` in the program `sql` (upper-case names); throws the compile errors. */
export function planOf(sql: string, view: string): string {
  const { program, errors } = bindProgram(sql, 'upper');
  if (!program) throw new Error(JSON.stringify(errors));
  const v = program.views.find((x) => x.name === view);
  if (!v) throw new Error(`no view ${view}`);
  return explain(v.node);
}

export interface PlanLine {
  depth: number;
  id: number;
  kind: string;
  /** The text between the kind and the column list: a join's kind and keys, a table's name, ... */
  detail: string;
  line: string;
}

/** The lines of an explain() text, in order. */
export function planLines(plan: string): PlanLine[] {
  return plan.split('\n').map((line) => {
    const m = /^( *)#(\d+) (\w+)(?: (.*?))?(?: \[.*\])?$/.exec(line);
    if (!m) throw new Error(`not a plan line: ${line}`);
    return { depth: m[1]!.length / 2, id: Number(m[2]), kind: m[3]!, detail: m[4] ?? '', line };
  });
}

/** The lines directly below `lines[i]`: the node's inputs. */
export function inputsOf(lines: PlanLine[], i: number): PlanLine[] {
  const out: PlanLine[] = [];
  for (let j = i + 1; j < lines.length && lines[j]!.depth > lines[i]!.depth; j++) if (lines[j]!.depth === lines[i]!.depth + 1) out.push(lines[j]!);
  return out;
}

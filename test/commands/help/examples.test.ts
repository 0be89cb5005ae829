/**
 * Help examples a new user can run after `ops serve --demo`: the pipeline examples name the demo's pipeline
 * and its tables and views (assets/demo/shop.sql), or a pipeline of their own that the examples create.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../../../src/program.js';
import { allCommands, describeTree } from '../../../src/docs/tree.js';
import { DEMO_PIPELINE } from '../../../src/commands/serve/demo.js';
import { ROOT } from '../../helpers/cli.js';

const demoRelations = [...readFileSync(join(ROOT, 'assets', 'demo', 'shop.sql'), 'utf8').matchAll(/CREATE (?:MATERIALIZED )?(?:TABLE|VIEW) (\w+)/gi)].map((m) => m[1]!.toLowerCase());
const OWN = 'mine'; // created by the `ops pipe create mine my.sql` examples
/** Subcommands whose arguments are NAME, then tables or views. */
const WITH_RELATIONS = new Set(['watch', 'snapshot', 'ingest']);
/** Groups of verbs under `ops pipe` (`ops pipe txn start NAME`): the verb is the word after the group. */
const GROUPS = new Set(['txn', 'program', 'config', 'connector']);
/** Verbs that take no pipeline name (`ops pipe validate FILE`). */
const NAMELESS = new Set(['list', 'ls', 'validate']);

describe('help examples', () => {
  it('ops pipe examples name the demo pipeline and its tables and views', async () => {
    const spec = describeTree(await buildProgram([], { loadAll: true }));
    const examples = allCommands(spec).flatMap((c) => c.examples);
    const pipe = examples.map((e) => e.replace(/\s+#.*$/, '').split(/\s+/)).filter((w) => w.includes('pipe') && w[0] === 'ops');
    expect(pipe.length).toBeGreaterThan(15);
    expect(demoRelations).toEqual(expect.arrayContaining(['orders', 'revenue_by_product']));
    for (const words of pipe) {
      const pipeAt = words.indexOf('pipe');
      const at = GROUPS.has(words[pipeAt + 1]!) ? pipeAt + 1 : pipeAt;
      const verb = words[at + 1]!;
      const args = words.slice(at + 2).filter((w) => !w.startsWith('-') && !/^\d/.test(w));
      if (NAMELESS.has(verb) || args.length === 0) continue;
      expect([DEMO_PIPELINE, OWN], words.join(' ')).toContain(args[0]);
      if (WITH_RELATIONS.has(verb) && args[0] === DEMO_PIPELINE) {
        const relations = args.slice(1).filter((w) => !/\.(ndjson|json|csv|parquet)$/.test(w) && w !== '|' && w !== '>');
        const until = relations.findIndex((w) => ['|', '>', 'jq', 'grep'].includes(w));
        for (const r of until >= 0 ? relations.slice(0, until) : relations) expect(demoRelations, words.join(' ')).toContain(r.toLowerCase());
      }
    }
  });
});

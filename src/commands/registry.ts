/**
 * The command trees of `ops`. Each tree is loaded only when it is used, so that `ops --version` and
 * `ops --help` load neither the server, the engine nor the SQL parser.
 *
 * The command shape (gh's `pkg/cmd/<noun>/<verb>`, see factory.ts): a tree's index.ts only wires; each verb
 * lives in its group's module as `newCmd<Verb>(f, runF)` + `<Verb>Options` + `run<Verb>(options, ctx)`.
 * Layout: one module per verb group (`bm/links.ts` holds links list|get|add|edit|rm|open|notes), not one file
 * per verb: the groups are small (2-7 verbs of 10-60 lines), their verbs share flag sets and helpers
 * (paging, link fields, the collection kind), and a folder per group would double the files for no reader's
 * gain. A group that grows past a few hundred lines splits into a folder `<tree>/<group>/<verb>.ts` of the
 * same shape. Every tree (bm, pipe, hook, serve, auth, config, completion) is wired the same way.
 */
import type { Command } from 'commander';
import type { Factory } from './factory.js';

export interface TreeModule {
  /** Add the tree's verbs and options to `cmd` (already named and described); `f` gives them their context. */
  register(cmd: Command, f: Factory): void;
}

export interface TreeEntry {
  name: string;
  summary: string;
  aliases?: string[];
  load(): Promise<TreeModule>;
}

export const TREES: readonly TreeEntry[] = [
  { name: 'bm', summary: 'Bookmarks: links, lists, tags, notes, search, bulk, trash, import/export', load: () => import('./bm/index.js') },
  { name: 'pipe', summary: 'SQL pipelines: create, start, ingest, watch view changes, stats', load: () => import('./pipe/index.js') },
  { name: 'hook', summary: 'Webhooks: receive and verify, sign, replay, manage registrations', load: () => import('./hook/index.js') },
  { name: 'serve', summary: 'Run all three services locally on embedded storage', load: () => import('./serve/index.js') },
  { name: 'auth', summary: 'Log in to the services, show status, log out', load: () => import('./auth/index.js') },
  { name: 'config', summary: 'Show and change settings and profiles', load: () => import('./config/index.js') },
  { name: 'completion', summary: 'Print a shell completion script (bash, zsh, fish)', load: () => import('./completion/index.js') },
];

export function findTree(name: string | undefined): TreeEntry | undefined {
  if (!name) return undefined;
  return TREES.find((t) => t.name === name || t.aliases?.includes(name));
}

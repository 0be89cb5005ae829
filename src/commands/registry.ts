/**
 * The command trees of `ops`. Each tree is loaded only when it is used, so that `ops --version` and
 * `ops --help` load neither the server, the engine nor the SQL parser.
 */
import type { Command } from 'commander';

/** What the root hands a tree when it registers it (so that no command imports the root). */
export interface TreeTools {
  /** The whole command tree, every tree loaded (for completion scripts and help). */
  fullProgram(): Promise<Command>;
}

export interface TreeModule {
  /** Add the tree's subcommands and options to `cmd` (already named and described). */
  register(cmd: Command, tools: TreeTools): void;
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

/**
 * The one command shape (gh's `pkg/cmd/<noun>/<verb>`), and what every command constructor gets: the Factory.
 *
 * A verb is three exports of its group's module: `<Verb>Options` (flags and arguments, typed), `newCmd<Verb>(f,
 * runF = run<Verb>)` (the commander Command with its own flags; its action turns argv into the options and calls
 * `runWith(f, runF, options)`, which hands runF the factory's context), and `run<Verb>(options, ctx)` (the work,
 * callable from tests with typed options and any Context). Group commands (`bm links`, `serve user`) are
 * `newCmd<Group>(f)`, which only attach their verbs; a tree's index.ts only wires. Rules:
 * - A command reaches its context only through the Factory it was constructed with: no module-level state, no
 *   `contextFor`. The Factory belongs to one run of the root command (program.ts builds it).
 * - Options are typed where they are declared: no `as never`, no `any` (test/house/commands.test.ts).
 * - Constructors build detached commands; `addVerbs` attaches them so that they inherit the root's settings
 *   (exit override, output streams, help option) exactly as `.command()` would.
 */
import type { Command } from 'commander';
import { Context, type GlobalOptions, type Runtime } from '../context.js';

export interface Factory {
  /** The context of the running command, built on first use from the global options it sees. */
  context(): Context;
  /** The whole command tree, every tree loaded (for completion scripts and help). */
  fullProgram(): Promise<Command>;
}

/** What a verb's run function looks like (its result, if any, is for tests and callers in code). */
export type RunFunction<O> = (options: O, ctx: Context) => Promise<unknown>;

/** A verb's action: run it with the factory's context (commander wants a Promise<void>). */
export async function runWith<O>(f: Factory, runF: RunFunction<O>, options: O): Promise<void> {
  await runF(options, f.context());
}

/**
 * The Factory of one run of `root`: the context is built from the global options of the command that runs
 * (commander's preAction hook names it), with the run's streams and environment.
 */
export function createFactory(root: Command, runtime: Runtime, fullProgram: () => Promise<Command>): Factory {
  let running: Command | undefined;
  let context: Context | undefined;
  root.hook('preAction', (_root, actionCommand) => {
    running = actionCommand;
  });
  return {
    context() {
      context ??= new Context((running ?? root).optsWithGlobals<GlobalOptions>(), runtime.env ?? process.env, runtime.io);
      return context;
    },
    fullProgram,
  };
}

/** Attach verbs (or groups) to `parent`, each inheriting the parent's settings down its whole subtree. */
export function addVerbs(parent: Command, ...children: Command[]): Command {
  for (const child of children) addVerb(parent, child);
  return parent;
}

/** Attach one verb; `hidden` leaves it out of help and completions. */
export function addVerb(parent: Command, child: Command, options: { hidden?: boolean } = {}): Command {
  parent.addCommand(child, options);
  inherit(child, parent);
  return parent;
}

function inherit(cmd: Command, parent: Command): void {
  cmd.copyInheritedSettings(parent);
  for (const sub of cmd.commands) inherit(sub, cmd);
}

/** `ops bm notes add|edit|rm` (a link's notes are listed by `ops bm links notes ID`): commands, options, run functions. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import type { Factory, RunFunction } from '../factory.js';
import { addVerbs } from '../factory.js';
import { examples } from '../help-text.js';
import { OpsError, UsageError } from '../../core/errors.js';
import { noteFields } from './format.js';
import { bm, mode, parseId, parseIds, readText, runBm, trashEach, visibilityOption } from './shared.js';

/** `ops bm notes`: the group and its verbs. */
export function newCmdNotes(f: Factory): Command {
  const notes = new Command('notes')
    .alias('note')
    .description('Notes on links: add, edit, rm (list them with `ops bm links notes ID`)')
    .addHelpText('after', examples('ops bm notes add 12 "Read the second half"', 'ops bm links notes 12'));
  return addVerbs(notes, newCmdNotesAdd(f), newCmdNotesEdit(f), newCmdNotesRm(f));
}

/** The note text: the argument, or stdin when it is "-" (or missing and stdin is not a terminal). */
async function noteText(ctx: Context, text: string | undefined): Promise<string> {
  let value = text;
  if (value === '-' || (value === undefined && !ctx.io.stdinIsTTY)) value = await readText(ctx, '-');
  if (value === undefined) {
    if (ctx.prompter.interactive) value = await ctx.prompter.input('Note');
    else throw new UsageError('give the note text as an argument, or "-" to read it from stdin');
  }
  if (!value.trim()) throw new UsageError('the note is empty');
  return value.replace(/\r?\n$/, '');
}

export interface NotesAddOptions {
  linkId: string;
  /** the note; "-" or undefined reads stdin */
  text?: string;
  visibility?: string;
}

export function newCmdNotesAdd(f: Factory, runF: RunFunction<NotesAddOptions> = runNotesAdd): Command {
  return new Command('add')
    .arguments('<link-id> [text]')
    .description('Add a note to a link (text from the argument, or stdin with "-")')
    .option('--visibility <v>', 'public, internal or private (or 1, 2, 3)')
    .addHelpText('after', examples('ops bm notes add 42 "Read the second part"', 'cat notes.md | ops bm notes add 42 -'))
    .action((linkId: string, text: string | undefined, flags: { visibility?: string }) => runBm(f, runF, { ...flags, linkId, text }));
}

export async function runNotesAdd(opts: NotesAddOptions, ctx: Context): Promise<void> {
  const id = parseId(opts.linkId, 'link id');
  const note = await noteText(ctx, opts.text);
  const visibility = visibilityOption(opts.visibility);
  const created = await bm(ctx).createNote({ link_id: id, note, ...(visibility !== undefined ? { visibility } : {}) });
  if (!ctx.json) ctx.out.success(`added note ${created.id} to link ${id}`);
  await ctx.out.item(created, noteFields(mode(ctx)));
}

export interface NotesEditOptions {
  id: string;
  /** the new text; "-" or undefined reads stdin */
  text?: string;
  visibility?: string;
}

export function newCmdNotesEdit(f: Factory, runF: RunFunction<NotesEditOptions> = runNotesEdit): Command {
  return new Command('edit')
    .arguments('<id> [text]')
    .description('Replace the text of a note')
    .option('--visibility <v>', 'public, internal or private (or 1, 2, 3)')
    .addHelpText('after', examples('ops bm notes edit 7 "Updated"'))
    .action((id: string, text: string | undefined, flags: { visibility?: string }) => runBm(f, runF, { ...flags, id, text }));
}

export async function runNotesEdit(opts: NotesEditOptions, ctx: Context): Promise<void> {
  const id = parseId(opts.id, 'note id');
  const note = await noteText(ctx, opts.text);
  const visibility = visibilityOption(opts.visibility);
  const updated = await bm(ctx).updateNote(id, { note, ...(visibility !== undefined ? { visibility } : {}) });
  if (!ctx.json) ctx.out.success(`updated note ${updated.id}`);
  await ctx.out.item(updated, noteFields(mode(ctx)));
}

export interface NotesRmOptions {
  ids: string[];
}

export function newCmdNotesRm(f: Factory, runF: RunFunction<NotesRmOptions> = runNotesRm): Command {
  return new Command('rm')
    .arguments('<id...>')
    .alias('delete')
    .description('Move notes to the trash (asks first; --yes in scripts)')
    .addHelpText('after', examples('ops bm notes rm 7 --yes'))
    .action((ids: string[]) => runBm(f, runF, { ids }));
}

export async function runNotesRm(opts: NotesRmOptions, ctx: Context): Promise<void> {
  const list = parseIds(opts.ids, 'note id');
  if (list.length === 0) throw new UsageError('give at least one note id');
  const what = list.length === 1 ? `note ${list[0]}` : `${list.length} notes`;
  if (!(await ctx.prompter.confirm(`Move ${what} to the trash?`, { action: `delete ${what}` }))) throw new OpsError('cancelled', 2);
  const client = bm(ctx);
  await trashEach(ctx, list, (id) => client.deleteNote(id), 'note', 'notes');
}

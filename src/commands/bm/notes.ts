/** `ops bm notes add|edit|rm` (a link's notes are listed by `ops bm links notes ID`). */
import type { Context } from '../../context.js';
import { OpsError, UsageError } from '../../core/errors.js';
import { noteFields } from './format.js';
import { bm, mode, parseId, parseIds, readText, visibilityOption } from './shared.js';

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

export async function notesAdd(ctx: Context, linkId: string, text: string | undefined, opts: { visibility?: string }): Promise<void> {
  const id = parseId(linkId, 'link id');
  const note = await noteText(ctx, text);
  const visibility = visibilityOption(opts.visibility);
  const created = await bm(ctx).createNote({ link_id: id, note, ...(visibility !== undefined ? { visibility } : {}) });
  if (!ctx.json) ctx.out.success(`added note ${created.id} to link ${id}`);
  await ctx.out.item(created, noteFields(mode(ctx)));
}

export async function notesEdit(ctx: Context, noteId: string, text: string | undefined, opts: { visibility?: string }): Promise<void> {
  const id = parseId(noteId, 'note id');
  const note = await noteText(ctx, text);
  const visibility = visibilityOption(opts.visibility);
  const updated = await bm(ctx).updateNote(id, { note, ...(visibility !== undefined ? { visibility } : {}) });
  if (!ctx.json) ctx.out.success(`updated note ${updated.id}`);
  await ctx.out.item(updated, noteFields(mode(ctx)));
}

export async function notesRemove(ctx: Context, ids: string[]): Promise<void> {
  const list = parseIds(ids, 'note id');
  if (list.length === 0) throw new UsageError('give at least one note id');
  const what = list.length === 1 ? `note ${list[0]}` : `${list.length} notes`;
  if (!(await ctx.prompter.confirm(`Move ${what} to the trash?`, { action: `delete ${what}` }))) throw new OpsError('cancelled', 2);
  const client = bm(ctx);
  const results: { id: number; deleted: boolean; error: string | null }[] = [];
  let lastError: unknown;
  for (const id of list) {
    try {
      await client.deleteNote(id);
      results.push({ id, deleted: true, error: null });
    } catch (err) {
      lastError = err;
      results.push({ id, deleted: false, error: (err as Error).message });
    }
  }
  if (ctx.json) await ctx.out.writeJson(results);
  else for (const r of results) if (r.deleted) ctx.out.success(`moved note ${r.id} to the trash`);
  const failed = results.filter((r) => !r.deleted);
  if (!ctx.json && list.length > 1) for (const r of failed) ctx.out.warn(`note ${r.id}: ${r.error}`);
  if (failed.length) {
    if (list.length === 1 && !ctx.json) throw lastError;
    throw new OpsError(`${failed.length} of ${list.length} notes were not deleted`);
  }
}

/**
 * `ops bm`: the bookmark client. Wires the verbs of each group module (links, lists/tags, notes, search, bulk,
 * trash, import/export, check, version) in help order; each module declares its verbs' flags and options.
 * Works against `ops serve` and a real LinkAce 2.x (see docs/bm.md for the differences it adapts to).
 */
import type { Command } from 'commander';
import type { Factory } from '../factory.js';
import { addVerbs } from '../factory.js';
import { describeArguments, examples, optionChoices } from '../help-text.js';
import { newCmdBulk } from './bulk.js';
import { newCmdCheck } from './check.js';
import { newCmdCollections } from './collections.js';
import { newCmdLinks } from './links.js';
import { newCmdNotes } from './notes.js';
import { newCmdSearch } from './search.js';
import { newCmdExport, newCmdImport } from './transfer.js';
import { newCmdTrash } from './trash.js';
import { newCmdVersion } from './version.js';

export function register(bm: Command, f: Factory): void {
  bm.addHelpText('after', examples('ops bm links list --tag docs', 'ops bm links add https://example.com --tag reading', 'ops bm import bookmarks.html', 'ops bm export -o backup.html'));
  addVerbs(
    bm,
    newCmdLinks(f),
    newCmdCollections(f, 'lists'),
    newCmdCollections(f, 'tags'),
    newCmdNotes(f),
    newCmdSearch(f),
    newCmdBulk(f),
    newCmdTrash(f),
    newCmdImport(f),
    newCmdExport(f),
    newCmdCheck(f),
    newCmdVersion(f),
  );
  describeArguments(bm, ARGUMENTS);
  optionChoices(bm, '--visibility', ['public', 'internal', 'private', '1', '2', '3']);
  optionChoices(bm, '--order', ['asc', 'desc']);
  optionChoices(bm, '--status', ['ok', 'moved', 'broken']);
}

const ARGUMENTS: Record<string, string> = {
  id: 'the link id',
  'links:id': 'the link id',
  'notes:id': 'the note id',
  'rm:id': 'one or more ids',
  url: 'the URL (http or https)',
  'check:url': 'is this URL saved already? (exit 0 yes, 1 no)',
  list: 'the list, by id or name',
  tag: 'the tag, by id or name',
  name: 'the name',
  'link-id': 'the id of the link the note belongs to',
  text: 'the note (Markdown); omitted: read from stdin',
  query: 'text to look for',
  file: 'a file; "-" or omitted reads stdin',
  'import:file': 'a Netscape bookmark file (HTML) or an `ops bm export` JSON file; "-" reads stdin',
  type: 'links, lists, tags or notes',
  'restore:type': 'link, list, tag or note',
  'restore:id': 'one or more ids',
};

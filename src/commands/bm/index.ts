/**
 * `ops bm`: the bookmark client. Each verb group lives in its own module, loaded when the verb runs.
 * Works against `ops serve` and a real LinkAce 2.x (see docs/bm.md for the differences it adapts to).
 */
import type { Command } from 'commander';
import { contextFor, type Context } from '../../context.js';
import { cliError, collect } from './shared.js';
import { describeArguments, examples, optionChoices } from '../help-text.js';

type Handler = (ctx: Context, ...args: never[]) => Promise<void>;

/** An action that gets the Context first and turns helper errors into CLI errors. */
function act<A extends unknown[]>(fn: (ctx: Context, ...args: A) => Promise<void>) {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const rest = args.slice(0, -1) as A;
    try {
      await fn(contextFor(command), ...rest);
    } catch (err) {
      throw cliError(err);
    }
  };
}


function pagingOptions(cmd: Command): Command {
  return cmd.option('--limit <n>', 'at most this many (default 25)').option('--all', 'every item, following pages (rows print as pages arrive)');
}

function registerLinks(bm: Command): void {
  const links = bm
    .command('links')
    .alias('link')
    .description('Links (bookmarks): list, get, add, edit, rm, open, notes')
    .addHelpText('after', examples('ops bm links list --tag docs --limit 10', 'ops bm links add https://example.com --tag reading --create-missing', 'ops bm links rm 12 --yes'));
  pagingOptions(
    links
      .command('list')
      .alias('ls')
      .description('List links, newest first; filters use the search API (your own links)')
      .option('--tag <name>', 'with this tag (repeatable or comma-separated; any of them)', collect)
      .option('--list <name>', 'in this list (repeatable or comma-separated; any of them)', collect)
      .option('--visibility <v>', 'public, internal or private (or 1, 2, 3)')
      .option('--broken', 'only moved or broken links')
      .option('--status <s>', 'only ok, moved or broken links')
      .option('-q, --query <text>', 'URL, title or description contains this')
      .option('--sort <field>', 'id, url, title, created_at, updated_at, visibility, status, random')
      .option('--order <dir>', 'asc or desc (default desc)'),
  )
    .addHelpText('after', examples('ops bm links list', 'ops bm links list --tag docs --tag rust --limit 50', 'ops bm links list --broken --all --json | jq -r ".[].url"'))
    .action(act(async (ctx, opts) => (await import('./links.js')).linksList(ctx, opts as never)));
  links
    .command('get <id>')
    .alias('show')
    .description('Show one link with its tags and lists')
    .addHelpText('after', examples('ops bm links get 42', 'ops bm links get 42 --json'))
    .action(act(async (ctx, id: string) => (await import('./links.js')).linksGet(ctx, id)));
  const linkFieldOptions = (c: Command) =>
    c
      .option('--title <text>', 'title (fetched from the page when omitted on add)')
      .option('--description <text>', 'description')
      .option('--tag <name>', 'tag by name (repeatable or comma-separated)', collect)
      .option('--list <name>', 'list by name (repeatable or comma-separated)', collect)
      .option('--visibility <v>', 'public, internal or private (or 1, 2, 3)')
      .option('--check-disabled', 'exclude the link from health checks')
      .option('--create-missing', 'create tags and lists that do not exist yet');
  linkFieldOptions(links.command('add <url>').description('Add a link (warns about a URL that is already saved)'))
    .option('--force', 'skip the duplicate check')
    .addHelpText('after', examples('ops bm links add https://example.com --tag docs --visibility internal', 'ops bm links add https://example.com/new --tag new-tag --create-missing --json'))
    .action(act(async (ctx, url: string, opts) => (await import('./links.js')).linksAdd(ctx, url, opts as never)));
  linkFieldOptions(links.command('edit <id>').description('Change a link (only the given fields; --tag/--list replace, --add-*/--remove-* adjust)'))
    .option('--url <url>', 'new URL')
    .option('--add-tag <name>', 'add a tag (repeatable)', collect)
    .option('--remove-tag <name>', 'remove a tag (repeatable)', collect)
    .option('--add-list <name>', 'add to a list (repeatable)', collect)
    .option('--remove-list <name>', 'remove from a list (repeatable)', collect)
    .option('--check-enabled', 'include the link in health checks again')
    .addHelpText('after', examples('ops bm links edit 42 --title "Better title" --add-tag reading', 'ops bm links edit 42 --visibility private'))
    .action(act(async (ctx, id: string, opts) => (await import('./links.js')).linksEdit(ctx, id, opts as never)));
  links
    .command('rm <id...>')
    .alias('delete')
    .description('Move links to the trash (asks first; --yes in scripts)')
    .addHelpText('after', examples('ops bm links rm 42', 'ops bm links rm 42 43 --yes'))
    .action(act(async (ctx, ids: string[]) => (await import('./links.js')).linksRemove(ctx, ids)));
  links
    .command('open <id>')
    .description('Open a link in the browser ($BROWSER, else the system opener)')
    .option('--print', 'print the URL instead')
    .addHelpText('after', examples('ops bm links open 42', 'ops bm links open 42 --print'))
    .action(act(async (ctx, id: string, opts) => (await import('./links.js')).linksOpen(ctx, id, opts as never)));
  links
    .command('notes <id>')
    .description('List the notes of a link')
    .addHelpText('after', examples('ops bm links notes 42'))
    .action(act(async (ctx, id: string) => (await import('./links.js')).linksNotes(ctx, id)));
}

function registerCollections(bm: Command, kind: 'lists' | 'tags'): void {
  const one = kind === 'lists' ? 'list' : 'tag';
  const group = bm
    .command(kind)
    .alias(one)
    .description(`${kind === 'lists' ? 'Lists' : 'Tags'}: list, get, add, edit, rm, links`)
    .addHelpText('after', examples(`ops bm ${kind} list`, `ops bm ${kind} add ${kind === 'lists' ? '"Reading list"' : 'reading'}`, `ops bm ${kind} links ${kind === 'lists' ? '"Reading list"' : 'reading'} --json`));
  pagingOptions(group.command('list').alias('ls').description(`List ${kind}`))
    .option('--sort <field>', `id, name, ${kind === 'lists' ? 'description, ' : ''}visibility, created_at, updated_at, random`)
    .option('--order <dir>', 'asc or desc (default desc)')
    .addHelpText('after', examples(`ops bm ${kind} list --all`, `ops bm ${kind} list --sort name --order asc`))
    .action(act(async (ctx, opts) => (await import('./collections.js')).collectionsList(ctx, kind, opts as never)));
  group
    .command(`get <${one}>`)
    .alias('show')
    .description(`Show a ${one} (by id or name)`)
    .addHelpText('after', examples(`ops bm ${kind} get 3`, `ops bm ${kind} get "reading"`))
    .action(act(async (ctx, ref: string) => (await import('./collections.js')).collectionsGet(ctx, kind, ref)));
  const add = group.command('add <name>').description(`Create a ${one}`).option('--visibility <v>', 'public, internal or private (or 1, 2, 3)');
  if (kind === 'lists') add.option('--description <text>', 'description');
  add
    .addHelpText('after', examples(`ops bm ${kind} add reading --visibility internal`))
    .action(act(async (ctx, name: string, opts) => (await import('./collections.js')).collectionsAdd(ctx, kind, name, opts as never)));
  const edit = group
    .command(`edit <${one}>`)
    .description(`Change a ${one} (by id or name)`)
    .option('--name <name>', 'new name')
    .option('--visibility <v>', 'public, internal or private (or 1, 2, 3)');
  if (kind === 'lists') edit.option('--description <text>', 'description ("" clears it)');
  edit
    .addHelpText('after', examples(`ops bm ${kind} edit 3 --name later`, `ops bm ${kind} edit reading --visibility private`))
    .action(act(async (ctx, ref: string, opts) => (await import('./collections.js')).collectionsEdit(ctx, kind, ref, opts as never)));
  group
    .command(`rm <${one}...>`)
    .alias('delete')
    .description(`Move ${kind} to the trash (asks first; --yes in scripts)`)
    .addHelpText('after', examples(`ops bm ${kind} rm 3`, `ops bm ${kind} rm old-stuff --yes`))
    .action(act(async (ctx, refs: string[]) => (await import('./collections.js')).collectionsRemove(ctx, kind, refs)));
  pagingOptions(group.command(`links <${one}>`).description(`Links ${kind === 'lists' ? 'in a list' : 'with a tag'} (by id or name)`))
    .addHelpText('after', examples(`ops bm ${kind} links 3`, `ops bm ${kind} links reading --all --json`))
    .action(act(async (ctx, ref: string, opts) => (await import('./collections.js')).collectionsLinks(ctx, kind, ref, opts as never)));
}

function registerNotes(bm: Command): void {
  const notes = bm
    .command('notes')
    .alias('note')
    .description('Notes on links: add, edit, rm (list them with `ops bm links notes ID`)')
    .addHelpText('after', examples('ops bm notes add 12 "Read the second half"', 'ops bm links notes 12'));
  notes
    .command('add <link-id> [text]')
    .description('Add a note to a link (text from the argument, or stdin with "-")')
    .option('--visibility <v>', 'public, internal or private (or 1, 2, 3)')
    .addHelpText('after', examples('ops bm notes add 42 "Read the second part"', 'cat notes.md | ops bm notes add 42 -'))
    .action(act(async (ctx, linkId: string, text: string | undefined, opts) => (await import('./notes.js')).notesAdd(ctx, linkId, text, opts as never)));
  notes
    .command('edit <id> [text]')
    .description('Replace the text of a note')
    .option('--visibility <v>', 'public, internal or private (or 1, 2, 3)')
    .addHelpText('after', examples('ops bm notes edit 7 "Updated"'))
    .action(act(async (ctx, id: string, text: string | undefined, opts) => (await import('./notes.js')).notesEdit(ctx, id, text, opts as never)));
  notes
    .command('rm <id...>')
    .alias('delete')
    .description('Move notes to the trash (asks first; --yes in scripts)')
    .addHelpText('after', examples('ops bm notes rm 7 --yes'))
    .action(act(async (ctx, ids: string[]) => (await import('./notes.js')).notesRemove(ctx, ids)));
}

function registerBulk(bm: Command): void {
  const bulk = bm
    .command('bulk')
    .description('Add, edit or delete many items from a file or stdin (JSON array, NDJSON or CSV)')
    .addHelpText('after', examples('ops bm bulk add links.csv --create-missing', 'ops bm bulk rm ids.txt --yes'));
  const common = (c: Command) =>
    c
      .option('--type <type>', 'links, lists or tags (default links)')
      .option('--format <format>', 'json, ndjson or csv (default: from the file name or content)');
  common(bulk.command('add [file]').description('Create items, one result per item; URLs already saved are skipped'))
    .option('--create-missing', 'create tags and lists named by the items')
    .option('--force', 'do not skip URLs (tags: names) that exist')
    .addHelpText('after', examples('ops bm bulk add links.csv', 'jq -c ".[]" links.json | ops bm bulk add - --create-missing', 'ops bm bulk add tags.json --type tags'))
    .action(act(async (ctx, file: string | undefined, opts) => (await import('./bulk.js')).bulkAdd(ctx, file ?? '-', opts as never)));
  common(bulk.command('edit [file]').description('Update items by id (each record: id plus the fields to change)'))
    .option('--create-missing', 'create tags and lists named by the items')
    .addHelpText('after', examples('ops bm bulk edit changes.ndjson', 'printf "id,visibility\\n4,private\\n" | ops bm bulk edit - --format csv'))
    .action(act(async (ctx, file: string | undefined, opts) => (await import('./bulk.js')).bulkEdit(ctx, file ?? '-', opts as never)));
  common(bulk.command('rm [file]').description('Move items to the trash by id (asks first; --yes in scripts)'))
    .addHelpText('after', examples('ops bm bulk rm ids.json --yes', 'ops bm links list --broken --all --json | jq -c ".[].id" | ops bm bulk rm - --yes'))
    .action(act(async (ctx, file: string | undefined, opts) => (await import('./bulk.js')).bulkRemove(ctx, file ?? '-', opts as never)));
}

function registerTrash(bm: Command): void {
  const trash = bm
    .command('trash')
    .description('Deleted links, lists, tags and notes: list, restore, clear')
    .addHelpText('after', examples('ops bm trash list', 'ops bm trash restore link 12 13', 'ops bm trash clear --yes'));
  trash
    .command('list')
    .alias('ls')
    .description('What is in the trash')
    .option('--type <type>', 'links, lists, tags, notes or all (default all)')
    .addHelpText('after', examples('ops bm trash list', 'ops bm trash list --type links --json'))
    .action(act(async (ctx, opts) => (await import('./trash.js')).trashList(ctx, opts as never)));
  trash
    .command('restore <type> <id...>')
    .description('Restore items (type: link, list, tag or note)')
    .addHelpText('after', examples('ops bm trash restore link 42', 'ops bm trash restore tag 3 4'))
    .action(act(async (ctx, type: string, ids: string[]) => (await import('./trash.js')).trashRestore(ctx, type, ids)));
  trash
    .command('clear')
    .description('Delete the trash for good (asks first; --yes in scripts)')
    .option('--type <type>', 'links, lists, tags, notes or all (default all)')
    .addHelpText('after', examples('ops bm trash clear', 'ops bm trash clear --type links --yes'))
    .action(act(async (ctx, opts) => (await import('./trash.js')).trashClear(ctx, opts as never)));
}

export function register(bm: Command): void {
  bm.addHelpText('after', examples('ops bm links list --tag docs', 'ops bm links add https://example.com --tag reading', 'ops bm import bookmarks.html', 'ops bm export -o backup.html'));
  registerLinks(bm);
  registerCollections(bm, 'lists');
  registerCollections(bm, 'tags');
  registerNotes(bm);
  pagingOptions(
    bm
      .command('search [query]')
      .description('Search your links (URL, title, description; filters), or tags or lists by name')
      .option('--type <type>', 'links, tags or lists (default links)')
      .option('--title', 'match the title (with --description: only those; default URL, title and description)')
      .option('--description', 'match the description')
      .option('--url-only', 'match the URL only')
      .option('--tag <name>', 'with this tag (repeatable; any of them)', collect)
      .option('--list <name>', 'in this list (repeatable; any of them)', collect)
      .option('--visibility <v>', 'public, internal or private (or 1, 2, 3)')
      .option('--broken', 'only moved or broken links')
      .option('--sort <field>', 'title, url or created_at')
      .option('--order <dir>', 'asc or desc'),
  )
    .addHelpText('after', examples('ops bm search rust', 'ops bm search rust --title --tag reading', 'ops bm search --broken --all', 'ops bm search prog --type tags'))
    .action(act(async (ctx, query: string | undefined, opts) => (await import('./search.js')).search(ctx, query, opts as never)));
  registerBulk(bm);
  registerTrash(bm);
  bm.command('import <file>')
    .description('Import a Netscape bookmark file (or an `ops bm export` JSON file); "-" reads stdin')
    .option('--dry-run', 'show what would be created, create nothing')
    .option('--folders <mode>', 'folders become lists (default), tags, or none')
    .option('--visibility <v>', 'visibility of links the file says nothing about')
    .option('--client-side', "parse the file here even when the server has an importer")
    .addHelpText('after', examples('ops bm import bookmarks.html', 'ops bm import bookmarks.html --dry-run --folders tags', 'ops bm import backup.json --json'))
    .action(act(async (ctx, file: string, opts) => (await import('./transfer.js')).importFile(ctx, file, opts as never)));
  bm.command('export')
    .description('Export every link you can see: Netscape HTML (browsers, LinkAce), JSON or CSV')
    .option('--format <format>', 'html, json or csv (default html, or from -o)')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .addHelpText('after', examples('ops bm export -o bookmarks.html', 'ops bm export --format json > backup.json', 'ops bm export --format csv | column -s, -t'))
    .action(act(async (ctx, opts) => (await import('./transfer.js')).exportAll(ctx, opts as never)));
  bm.command('check [url]')
    .description('Run the link-health check and show moved and broken links; with a URL, is it saved already')
    .option('--broken', 'only broken links')
    .option('--id <id>', 'check one link')
    .addHelpText('after', examples('ops bm check', 'ops bm check --broken --json', 'ops bm check https://example.com && echo saved'))
    .action(act(async (ctx, url: string | undefined, opts) => (await import('./check.js')).check(ctx, url, opts as never)));
  bm.command('version')
    .description("The server's API version and what it offers (import endpoint, health check)")
    .addHelpText('after', examples('ops bm version', 'ops bm version --json'))
    .action(act(async (ctx) => (await import('./version.js')).bmVersion(ctx)));
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

export type { Handler };

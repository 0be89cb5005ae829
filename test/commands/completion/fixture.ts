/** A small command tree shaped like ops's bm and pipe trees, to test the generators on their own. */
import { Argument, Command, Option } from 'commander';

export function fixtureProgram(): Command {
  const program = new Command('ops')
    .description('One CLI; fixture.')
    .helpCommand(false)
    .option('--profile <name>', 'use this profile')
    .option('--json', 'print JSON')
    .option('-y, --yes', 'answer yes')
    .option('--pipe-url <url>', 'pipeline service URL')
    .addHelpText('after', '\nExamples:\n  ops bm links list');
  const bm = program.command('bm').description('Bookmarks');
  const links = bm.command('links').alias('link').description('Links');
  links
    .command('list')
    .alias('ls')
    .description('List links')
    .option('--tag <tag>', 'only with this tag')
    .addOption(new Option('--visibility <visibility>', 'only this visibility').choices(['public', 'internal', 'private']))
    .addOption(new Option('-f, --format <format>', 'output format').choices(['table', 'tsv', 'json']))
    .addHelpText('after', '\nExamples:\n  ops bm links list --tag docs\n  ops bm links list --visibility public   # public only')
    .action(() => {});
  links
    .command('add <url>')
    .description('Add a link')
    .action(() => {});
  bm.command('lists')
    .description('Lists')
    .action(() => {});
  bm.command('tags')
    .description('Tags')
    .action(() => {});
  bm.command('import')
    .description('Import a file')
    .argument('<file>', 'Netscape HTML file')
    .action(() => {});
  const pipe = program.command('pipe').description('Pipelines');
  pipe
    .command('watch')
    .description('Watch a view')
    .argument('<pipeline>', 'the pipeline')
    .argument('<view>', 'the view')
    .addOption(new Option('--format <format>', 'change format').choices(['json', 'csv']))
    .option('--since <seq>', 'start after this sequence number')
    .option('--no-snapshot', 'only changes, no initial snapshot')
    .option('--data-dir <dir>', 'where to keep state')
    .action(() => {});
  pipe
    .command('stats')
    .description('Stats of a pipeline')
    .argument('<name>', 'the pipeline')
    .action(() => {});
  pipe
    .command('create')
    .description('Create a pipeline')
    .argument('<name>', 'the new pipeline')
    .action(() => {});
  pipe
    .command('ingest')
    .description('Ingest rows')
    .argument('<pipeline>', 'the pipeline')
    .argument('<table>', 'the table')
    .argument('[files...]', 'files to send')
    .action(() => {});
  program
    .command('auth')
    .description('Auth')
    .command('login')
    .description('Log in')
    .addArgument(new Argument('<service>', 'which service').choices(['bm', 'pipe', 'notify']))
    .action(() => {});
  program
    .command('secret', { hidden: true })
    .description('hidden')
    .action(() => {});
  return program;
}

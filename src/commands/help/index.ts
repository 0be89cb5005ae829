/** `ops help [topic|command...]`. */
import type { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import { TOPICS } from './topics.js';

export async function showHelp(program: Command, words: string[]): Promise<void> {
  // commander's output (the run's stdout, see program.ts)
  const write = (text: string) => program.configureOutput().writeOut!(text);
  if (words.length === 0) {
    program.outputHelp();
    write(
      '\nHelp topics:\n' +
        Object.entries(TOPICS)
          .map(([name, t]) => `  ${name.padEnd(12)} ${t.summary}`)
          .join('\n') +
        '\n',
    );
    return;
  }
  const topic = TOPICS[words[0]!];
  if (topic && words.length === 1) {
    write(topic.text() + '\n');
    return;
  }
  let cmd: Command | undefined = program;
  for (const word of words) {
    cmd = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!cmd) {
      throw new UsageError(`no help for "${words.join(' ')}"`, `Topics: ${Object.keys(TOPICS).join(', ')}; or a command, e.g. \`ops help bm links\`.`);
    }
  }
  cmd.outputHelp();
}

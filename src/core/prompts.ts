/**
 * Prompts for people at a terminal: only when stdin and stdout are terminals and input is allowed.
 * `--yes` answers confirmations; a destructive command with no terminal and no --yes refuses (exit 2).
 * @inquirer/prompts is loaded only when a prompt is actually shown.
 */
import type { Io } from './io.js';
import { UsageError } from './errors.js';

export interface PromptPolicy {
  yes: boolean;
  noInput: boolean;
}

export interface Prompter {
  /** Whether prompting is possible at all. */
  readonly interactive: boolean;
  /** Ask for confirmation of a destructive action; `action` says what, `flagHint` how to skip it in scripts. */
  confirm(message: string, options?: { defaultYes?: boolean; action?: string }): Promise<boolean>;
  input(message: string, options?: { default?: string; validate?: (v: string) => true | string }): Promise<string>;
  password(message: string): Promise<string>;
}

export function canPrompt(io: Io, policy: PromptPolicy): boolean {
  return io.stdinIsTTY && io.stdoutIsTTY && !policy.noInput;
}

export function createPrompter(io: Io, policy: PromptPolicy): Prompter {
  const interactive = canPrompt(io, policy);
  // the streams are taken when a prompt is shown: a command that never prompts never creates stdin (core/io.ts)
  const context = () => ({ input: io.stdin, output: io.stderr }) as never;
  const requireTerminal = (what: string): void => {
    if (!interactive) {
      throw new UsageError(
        `${what} needs an answer, but ${policy.noInput ? 'input is disabled (--no-input)' : 'this is not a terminal'}`,
        'Give the value as a flag, or pipe it on stdin where the command allows that.',
      );
    }
  };
  return {
    interactive,
    async confirm(message, options = {}) {
      if (policy.yes) return true;
      if (!interactive) {
        throw new UsageError(`refusing to ${options.action ?? 'continue'} without confirmation: ${policy.noInput ? 'input is disabled (--no-input)' : 'not a terminal'}`, 'Pass --yes to confirm.');
      }
      const { confirm } = await import('@inquirer/prompts');
      return confirm({ message, default: options.defaultYes ?? false }, context());
    },
    async input(message, options = {}) {
      requireTerminal(message);
      const { input } = await import('@inquirer/prompts');
      return input({ message, default: options.default, validate: options.validate }, context());
    },
    async password(message) {
      requireTerminal(message);
      const { password } = await import('@inquirer/prompts');
      return password({ message, mask: '*' }, context());
    },
  };
}

/** Read all of stdin as text (for `--with-token`, `-` file arguments). */
export async function readStdin(io: Io): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

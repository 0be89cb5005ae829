/** `ops hook verify`: is SIG the x-signature of FILE's exact bytes? Exit 0 valid, 1 not, 2 usage. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ExitCode, OpsError, UsageError } from '../../core/errors.js';
import { readInput, requireSecret } from './shared.js';

export interface HookVerifyOptions {
  /** the payload; "-" or undefined reads stdin */
  file?: string;
  secretFile?: string;
  signature?: string;
  lenient?: boolean;
}

/** Exit 1 without the "ops: error:" prefix noise: the answer was already printed. */
export class InvalidSignature extends OpsError {
  constructor(reason: string) {
    super(`invalid signature: ${reason}`, ExitCode.failure);
  }
}

export function newCmdHookVerify(f: Factory, runF: RunFunction<HookVerifyOptions> = runHookVerify): Command {
  return new Command('verify')
    .arguments('[file]')
    .description('Check a signature against a payload (FILE or - for stdin); exit 0 valid, 1 invalid, 2 usage')
    .option('--signature <sig>', 'the x-signature value to check')
    .option('--secret-file <file>', 'file holding the secret (else OPS_HOOK_SECRET or the profile)')
    .option('--lenient', 'also accept sha256=-prefixed and upper-case signatures')
    .addHelpText('after', '\nExamples:\n  ops hook verify --secret-file secret.txt --signature "$SIG" body.json\n  cat body.json | ops hook verify --signature "$SIG" - && echo ok')
    .action((file: string | undefined, flags: Omit<HookVerifyOptions, 'file'>) => runWith(f, runF, { ...flags, file }));
}

export async function runHookVerify(flags: HookVerifyOptions, ctx: Context): Promise<{ valid: boolean; reason?: string }> {
  const { file } = flags;
  if (flags.signature === undefined) throw new UsageError('--signature SIG is required (the x-signature header value)');
  if (flags.secretFile === '-' && (file === undefined || file === '-')) {
    throw new UsageError('the secret and the payload cannot both come from stdin');
  }
  const secret = requireSecret(ctx, flags.secretFile, 'ops hook verify');
  const body = await readInput(ctx, file);
  // loaded here (node:crypto with it): the other hook verbs never verify
  const { describeProblem, verify } = await import('../../webhooks/signature.js');
  const result = verify(secret.value, body, flags.signature, { lenient: flags.lenient });
  const reason = result.reason ? describeProblem(result.reason) : undefined;
  if (ctx.json) await ctx.out.writeJson({ valid: result.valid, ...(result.reason ? { reason: result.reason, message: reason } : {}) });
  else if (result.valid) await ctx.out.write('valid\n');
  if (!result.valid) throw new InvalidSignature(reason!);
  return { valid: true };
}

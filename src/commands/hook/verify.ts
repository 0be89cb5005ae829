/** `ops hook verify`: is SIG the x-signature of FILE's exact bytes? Exit 0 valid, 1 not, 2 usage. */
import type { Context } from '../../context.js';
import { ExitCode, OpsError, UsageError } from '../../core/errors.js';
import { describeProblem, verify } from '../../webhooks/signature.js';
import { readInput, requireSecret } from './shared.js';

export interface VerifyFlags {
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

export async function hookVerify(ctx: Context, file: string | undefined, flags: VerifyFlags): Promise<{ valid: boolean; reason?: string }> {
  if (flags.signature === undefined) throw new UsageError('--signature SIG is required (the x-signature header value)');
  if (flags.secretFile === '-' && (file === undefined || file === '-')) {
    throw new UsageError('the secret and the payload cannot both come from stdin');
  }
  const secret = requireSecret(ctx, flags.secretFile, 'ops hook verify');
  const body = await readInput(ctx, file);
  const result = verify(secret.value, body, flags.signature, { lenient: flags.lenient });
  const reason = result.reason ? describeProblem(result.reason) : undefined;
  if (ctx.json) await ctx.out.writeJson({ valid: result.valid, ...(result.reason ? { reason: result.reason, message: reason } : {}) });
  else if (result.valid) await ctx.out.write('valid\n');
  if (!result.valid) throw new InvalidSignature(reason!);
  return { valid: true };
}

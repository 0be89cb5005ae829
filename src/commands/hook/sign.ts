/** `ops hook sign`: print the x-signature of FILE's exact bytes (lowercase hex HMAC-SHA-256). */
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { SIGNATURE_HEADER, sign } from '../../webhooks/signature.js';
import { readInput, requireSecret } from './shared.js';

export interface SignFlags {
  secretFile?: string;
  header?: boolean;
}

export async function hookSign(ctx: Context, file: string | undefined, flags: SignFlags): Promise<string> {
  if (flags.secretFile === '-' && (file === undefined || file === '-')) {
    throw new UsageError('the secret and the payload cannot both come from stdin');
  }
  const secret = requireSecret(ctx, flags.secretFile, 'ops hook sign');
  const body = await readInput(ctx, file);
  const signature = sign(secret.value, body);
  if (ctx.json) await ctx.out.writeJson({ signature, header: SIGNATURE_HEADER, bytes: body.length });
  else await ctx.out.write(flags.header ? `${SIGNATURE_HEADER}: ${signature}\n` : `${signature}\n`);
  return signature;
}

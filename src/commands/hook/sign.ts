/** `ops hook sign`: print the x-signature of FILE's exact bytes (lowercase hex HMAC-SHA-256). */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { UsageError } from '../../core/errors.js';
import { readInput, requireSecret } from './shared.js';

export interface HookSignOptions {
  /** the payload; "-" or undefined reads stdin */
  file?: string;
  secretFile?: string;
  header?: boolean;
}

export function newCmdHookSign(f: Factory, runF: RunFunction<HookSignOptions> = runHookSign): Command {
  return new Command('sign')
    .arguments('[file]')
    .description('Print the x-signature of a payload (FILE or - for stdin)')
    .option('--secret-file <file>', 'file holding the secret (else OPS_HOOK_SECRET or the profile)')
    .option('--header', 'print it as a header line: "x-signature: ..."')
    .addHelpText(
      'after',
      '\nExamples:\n  ops hook sign --secret-file secret.txt body.json\n  curl -H "content-type: application/json" -H "x-signature: $(ops hook sign body.json)" --data-binary @body.json http://127.0.0.1:8701/',
    )
    .action((file: string | undefined, flags: Omit<HookSignOptions, 'file'>) => runWith(f, runF, { ...flags, file }));
}

export async function runHookSign(flags: HookSignOptions, ctx: Context): Promise<string> {
  const { file } = flags;
  if (flags.secretFile === '-' && (file === undefined || file === '-')) {
    throw new UsageError('the secret and the payload cannot both come from stdin');
  }
  const secret = requireSecret(ctx, flags.secretFile, 'ops hook sign');
  const body = await readInput(ctx, file);
  // loaded here (node:crypto with it): the other hook verbs never sign
  const { SIGNATURE_HEADER, sign } = await import('../../webhooks/signature.js');
  const signature = sign(secret.value, body);
  if (ctx.json) await ctx.out.writeJson({ signature, header: SIGNATURE_HEADER, bytes: body.length });
  else await ctx.out.write(flags.header ? `${SIGNATURE_HEADER}: ${signature}\n` : `${signature}\n`);
  return signature;
}

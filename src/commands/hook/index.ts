/**
 * `ops hook ...`: receive, verify, sign and replay webhooks; manage the notification service. Wires the verbs in
 * help order; each verb module declares its flags, options and run function.
 */
import type { Command } from 'commander';
import type { Factory } from '../factory.js';
import { addVerbs } from '../factory.js';
import { describeArguments, examples } from '../help-text.js';
import { newCmdHookDashboard } from './dashboard.js';
import { newCmdHookDeliveries, newCmdHookRedeliver } from './deliveries.js';
import { newCmdHookList } from './list.js';
import { newCmdHookRegister } from './register.js';
import { newCmdHookReplay } from './replay.js';
import { newCmdHookRm } from './rm.js';
import { newCmdHookServe } from './serve.js';
import { newCmdHookSign } from './sign.js';
import { newCmdHookTrigger } from './trigger.js';
import { newCmdHookUpdate } from './update.js';
import { newCmdHookVerify } from './verify.js';

export function register(cmd: Command, f: Factory): void {
  cmd.addHelpText(
    'after',
    "\nSignatures: x-signature = lowercase hex HMAC-SHA-256 of the raw body, keyed with the shared secret.\nThe secret comes from --secret-file FILE, OPS_HOOK_SECRET or the profile's hook.secret (never a flag value).\nSee docs/notifications.md.",
  );
  addVerbs(
    cmd,
    newCmdHookServe(f),
    newCmdHookVerify(f),
    newCmdHookSign(f),
    newCmdHookReplay(f),
    newCmdHookRegister(f),
    newCmdHookUpdate(f),
    newCmdHookList(f),
    newCmdHookRm(f),
    newCmdHookTrigger(f),
    newCmdHookDeliveries(f),
    newCmdHookRedeliver(f),
    newCmdHookDashboard(f),
  );
  cmd.addHelpText(
    'after',
    examples(
      'ops hook serve --port 8701',
      'ops hook register http://127.0.0.1:8701/ --events payment.completed,payment.failed',
      'ops hook trigger payment.completed',
      'ops hook deliveries --status failed',
    ),
  );
  describeArguments(cmd, {
    file: 'the payload file; "-" or omitted reads stdin',
    url: 'the receiver URL (http or https)',
    id: 'the webhook id (wh_...)',
    'rm:id': 'one or more webhook ids',
    'deliveries:id': 'a delivery id (dlv_...): show it with every attempt',
    'redeliver:id': 'one or more delivery ids (dlv_...)',
    type: 'the event type, e.g. payment.completed (see `ops hook trigger --help`)',
  });
}

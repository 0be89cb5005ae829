/** `ops hook ...`: receive, verify, sign and replay webhooks; manage the notification service. */
import type { Command } from 'commander';
import { contextFor } from '../../context.js';
import { describeArguments, examples } from '../help-text.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function register(cmd: Command): void {
  cmd.addHelpText(
    'after',
    '\nSignatures: x-signature = lowercase hex HMAC-SHA-256 of the raw body, keyed with the shared secret.\nThe secret comes from --secret-file FILE, OPS_HOOK_SECRET or the profile\'s hook.secret (never a flag value).\nSee docs/notifications.md.',
  );

  cmd
    .command('serve')
    .description('Receive webhooks: verify signatures, de-duplicate, print events, forward, keep them for replay')
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', '8701')
    .option('-a, --host <host>', 'interface to listen on', '127.0.0.1')
    .option('--path <path>', 'the path events are POSTed to', '/')
    .option('--secret-file <file>', 'file holding the signing secret (else OPS_HOOK_SECRET, the profile, or a generated one)')
    .option('--forward-to <url>', 'forward each new event (re-signed, same bytes) to this URL')
    .option('--forward-secret-file <file>', 'sign forwarded requests with this secret instead')
    .option('--events <types>', 'only these event types (comma list, repeatable); others get 200 and are dropped', collect)
    .option('--store <file>', 'event store for de-duplication and replay (default $XDG_STATE_HOME/ops/hook/events.ndjson)')
    .option('--no-store', 'keep nothing on disk (duplicates remembered until exit)')
    .option('--max-body <size>', 'largest accepted body, e.g. 1mb, 256kb', '1mb')
    .option('--retention <duration>', 'forget stored events older than this at start', '7d')
    .option('--lenient', 'also accept sha256=-prefixed and upper-case signatures')
    .option('--print-secret', 'print the signing secret in use and exit')
    .addHelpText(
      'after',
      '\nOutput: one JSON line per event on stdout when piped or with --json (a readable line on a terminal);\nwith --json the first line is {"event":"ready","url":...}. Rejections go to stderr.\n\nExamples:\n  OPS_HOOK_SECRET=s3cret ops hook serve --port 8701\n  ops hook serve --port 0 --json | jq -c \'select(.event=="received") | .data\'\n  ops hook serve --secret-file secret.txt --forward-to http://127.0.0.1:3000/webhooks --events payment.failed',
    )
    .action(async (flags, command: Command) => (await import('./serve.js')).hookServe(contextFor(command), flags));

  cmd
    .command('verify [file]')
    .description('Check a signature against a payload (FILE or - for stdin); exit 0 valid, 1 invalid, 2 usage')
    .option('--signature <sig>', 'the x-signature value to check')
    .option('--secret-file <file>', 'file holding the secret (else OPS_HOOK_SECRET or the profile)')
    .option('--lenient', 'also accept sha256=-prefixed and upper-case signatures')
    .addHelpText('after', '\nExamples:\n  ops hook verify --secret-file secret.txt --signature "$SIG" body.json\n  cat body.json | ops hook verify --signature "$SIG" - && echo ok')
    .action(async (file: string | undefined, flags, command: Command) => {
      await (await import('./verify.js')).hookVerify(contextFor(command), file, flags);
    });

  cmd
    .command('sign [file]')
    .description('Print the x-signature of a payload (FILE or - for stdin)')
    .option('--secret-file <file>', 'file holding the secret (else OPS_HOOK_SECRET or the profile)')
    .option('--header', 'print it as a header line: "x-signature: ..."')
    .addHelpText(
      'after',
      '\nExamples:\n  ops hook sign --secret-file secret.txt body.json\n  curl -H "content-type: application/json" -H "x-signature: $(ops hook sign body.json)" --data-binary @body.json http://127.0.0.1:8701/',
    )
    .action(async (file: string | undefined, flags, command: Command) => {
      await (await import('./sign.js')).hookSign(contextFor(command), file, flags);
    });

  cmd
    .command('replay')
    .description('Re-send stored events, signed, to a URL; or --failed: redeliver the service\'s failed deliveries')
    .option('--to <url>', 'where to send the events')
    .option('--id <id>', 'only this event (with --failed: an event or delivery id)')
    .option('--since <time>', 'only events received since an ISO time or a duration back (30m, 2h, 7d)')
    .option('--type <type>', 'only this event type')
    .option('--from <file>', 'read envelopes from a file (JSON array or NDJSON, e.g. saved `ops hook serve --json` output; - for stdin)')
    .option('--store <file>', 'the receiver store to read (default $XDG_STATE_HOME/ops/hook/events.ndjson)')
    .option('--secret-file <file>', 'file holding the secret to sign with (else OPS_HOOK_SECRET or the profile)')
    .option('--failed', 'ask the notification service to redeliver its failed deliveries')
    .option('--dry-run', 'show what would be sent')
    .addHelpText(
      'after',
      '\nEvents keep their ids, so the receiver\'s de-duplication is exercised. Exit 1 if any was not accepted.\n\nExamples:\n  ops hook replay --to http://127.0.0.1:3000/webhooks --since 1h\n  ops hook replay --to http://127.0.0.1:8701/ --from events.ndjson --type payment.failed\n  ops hook replay --failed',
    )
    .action(async (flags, command: Command) => (await import('./replay.js')).hookReplay(contextFor(command), flags));

  cmd
    .command('register [url]')
    .description('Register a receiver URL for event types with the notification service')
    .option('--url <url>', 'the receiver URL (or as the argument)')
    .option('--events <types>', 'event types, comma list (repeatable), or "*" for all', collect)
    .option('--secret-file <file>', 'signing secret (else OPS_HOOK_SECRET / the profile; else the service generates one)')
    .option('--description <text>', 'a note for yourself')
    .addHelpText('after', '\nExamples:\n  ops hook register http://127.0.0.1:8701/ --events user.created,user.deleted\n  ops hook register --url https://example.com/hooks --events "*" --secret-file secret.txt')
    .action(async (url: string | undefined, flags, command: Command) => {
      await (await import('./register.js')).hookRegister(contextFor(command), url, flags);
    });

  cmd
    .command('update <id>')
    .description('Change a registration: URL, event types, secret or description')
    .option('--url <url>', 'the new receiver URL')
    .option('--events <types>', 'the new event types, comma list (repeatable), or "*"', collect)
    .option('--secret-file <file>', 'the new signing secret')
    .option('--description <text>', 'the new note ("" clears it)')
    .addHelpText('after', '\nExamples:\n  ops hook update wh_0123abcd --events "*"\n  ops hook update wh_0123abcd --url http://127.0.0.1:9000/hooks --secret-file new-secret.txt')
    .action(async (id: string, flags, command: Command) => {
      await (await import('./update.js')).hookUpdate(contextFor(command), id, flags);
    });

  cmd
    .command('list')
    .alias('ls')
    .description('List the registered webhooks')
    .addHelpText('after', '\nExamples:\n  ops hook list\n  ops hook list --json | jq -r ".[].id"')
    .action(async (_flags, command: Command) => {
      await (await import('./list.js')).hookList(contextFor(command));
    });

  cmd
    .command('rm <id...>')
    .description('Delete webhook registrations (asks first; --yes in scripts)')
    .addHelpText('after', '\nExamples:\n  ops hook rm wh_0123abcd\n  ops hook rm wh_0123abcd wh_4567ef01 --yes')
    .action(async (ids: string[], _flags, command: Command) => (await import('./rm.js')).hookRm(contextFor(command), ids));

  cmd
    .command('trigger [type]')
    .description('Emit an event through the notification service (sample payload unless --data)')
    .option('--data <json>', 'the payload, a JSON object')
    .option('--data-file <file>', 'the payload from a file (- for stdin)')
    .option('--list', 'list the event types')
    .addHelpText('after', '\nExamples:\n  ops hook trigger payment.completed\n  ops hook trigger payment.failed --data \'{"amount":100,"orderId":"o1","customerId":"c1","error":"card_declined"}\'\n  ops hook trigger --list')
    .action(async (type: string | undefined, flags, command: Command) => (await import('./trigger.js')).hookTrigger(contextFor(command), type, flags));

  cmd
    .command('deliveries [id]')
    .description('Deliveries, failed first (or one delivery with all its attempts)')
    .option('--status <status>', 'pending, delivered or failed')
    .option('--webhook <id>', 'only deliveries to this webhook')
    .option('--event <id>', 'only deliveries of this event')
    .option('--type <type>', 'only deliveries of events of this type')
    .option('--limit <n>', 'at most this many (1-500, default 50)')
    .addHelpText('after', '\nExamples:\n  ops hook deliveries --status failed\n  ops hook deliveries dlv_0123456789abcdef0123 --json')
    .action(async (id: string | undefined, flags, command: Command) => (await import('./deliveries.js')).hookDeliveries(contextFor(command), id, flags));

  cmd
    .command('redeliver <id...>')
    .description('Queue deliveries again (a fresh series of attempts)')
    .addHelpText('after', '\nExample:\n  ops hook redeliver dlv_0123456789abcdef0123')
    .action(async (ids: string[], _flags, command: Command) => (await import('./deliveries.js')).hookRedeliver(contextFor(command), ids));

  cmd
    .command('dashboard')
    .description('Print the link to the delivery dashboard of the notification service (it carries the API key)')
    .addHelpText('after', '\nExample:\n  xdg-open "$(ops hook dashboard)"')
    .action(async (_flags, command: Command) => {
      await (await import('./dashboard.js')).hookDashboard(contextFor(command));
    });
  cmd.addHelpText('after', examples('ops hook serve --port 8701', 'ops hook register http://127.0.0.1:8701/ --events payment.completed,payment.failed', 'ops hook trigger payment.completed', 'ops hook deliveries --status failed'));
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

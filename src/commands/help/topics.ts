/** The `ops help <topic>` texts. Environment variables come from the settings table, so they stay in sync. */
import { EXIT_CODE_MEANINGS } from '../../core/errors.js';
import { OTHER_ENVIRONMENT, SETTINGS } from '../../core/settings.js';

export const TOPICS: Record<string, { summary: string; text: () => string }> = {
  environment: {
    summary: 'environment variables ops reads',
    text: () => {
      const rows = [...SETTINGS.map((s) => [s.env, `${s.description} (setting ${s.key}${s.secret ? ', secret' : ''})`]), ...OTHER_ENVIRONMENT.map((e) => [e.env, e.description])];
      const width = Math.max(...rows.map((r) => r[0]!.length));
      return [
        'Environment variables',
        '',
        'A setting is taken from, in order: a flag, its OPS_* environment variable, the active profile, the default.',
        '',
        ...rows.map(([name, text]) => `  ${name!.padEnd(width)}  ${text}`),
      ].join('\n');
    },
  },
  'exit-codes': {
    summary: 'what the exit status means',
    text: () => ['Exit codes', '', ...EXIT_CODE_MEANINGS.map((e) => `  ${String(e.code).padEnd(4)} ${e.meaning}`)].join('\n'),
  },
  formatting: {
    summary: 'tables, TSV, JSON and NDJSON output',
    text: () =>
      [
        'Output formats',
        '',
        'Data goes to stdout; messages, prompts, spinners and progress go to stderr.',
        '',
        '  terminal      a table with headers, colours and shortened URLs',
        '  piped         tab-separated values, one record per line, no header (cut -f1, awk -F\\t)',
        '  --json        JSON: an array for lists, one object for a single item',
        '  streams       NDJSON, one JSON object per line, flushed at once (ops pipe watch | jq)',
        '',
        'Colour is off when NO_COLOR is set, TERM=dumb, CLICOLOR=0, --no-color, or stdout is not a terminal;',
        'FORCE_COLOR=1 forces it on. Text from servers is stripped of control characters before printing.',
      ].join('\n'),
  },
  config: {
    summary: 'profiles, settings and where they are stored',
    text: () =>
      [
        'Configuration',
        '',
        'Settings live in profiles: $XDG_CONFIG_HOME/ops/config.json (default ~/.config/ops), and secrets',
        'in credentials.json beside it, readable only by you (mode 0600). OPS_CONFIG_DIR moves both.',
        '',
        'The active profile: --profile NAME, else OPS_PROFILE, else the one chosen with',
        '`ops config profiles use NAME`, else `local` (written by `ops serve` on its first start).',
        'A profile named with --profile or OPS_PROFILE must exist for the bm, pipe and hook commands',
        '(a typo stops with exit 1); `ops config set ... --profile NAME` and `ops auth login` create one.',
        '',
        'A profile written by `ops serve` records its data dir and belongs to that server: `ops serve` writes',
        '`local` only when it is absent or already belongs to the same data dir (it then updates the URL). A',
        'server on another data dir writes `local-<data dir name>` (or `ops serve --profile NAME`) and says so;',
        'it never touches a profile of another server or one you set up yourself.',
        '',
        'Settings:',
        ...SETTINGS.map((s) => `  ${s.key.padEnd(16)} ${s.description}${s.default ? ` (default ${s.default})` : ''}`),
        '',
        'Examples:',
        '  ops config list',
        '  ops config set bm.url https://links.example.com --profile work',
        '  printf %s "$TOKEN" | ops config set bm.token - --profile work',
        '  ops auth login bm --with-token < token.txt',
      ].join('\n'),
  },
};

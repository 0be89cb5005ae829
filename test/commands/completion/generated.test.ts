/** The committed completions and man page are exactly what the current command tree generates. */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectedFiles } from '../../../src/commands/completion/generate.js';
import { manDate } from '../../../src/commands/completion/scripts.js';
import { ROOT, isolatedEnv } from '../../helpers/cli.js';
import { opsIn as ops } from '../../helpers/ops-in-process.js';

const REGENERATE = 'npm run build && node dist/commands/completion/generate.js';

describe('generated files', () => {
  it('are committed and up to date with the command tree', async () => {
    const files = await expectedFiles(ROOT);
    expect(Object.keys(files).sort()).toEqual(['completions/_ops', 'completions/ops.bash', 'completions/ops.fish', 'man/ops.1']);
    for (const [path, content] of Object.entries(files)) {
      const file = join(ROOT, path);
      expect(existsSync(file), `${path} is missing: run \`${REGENERATE}\` and commit it`).toBe(true);
      expect(readFileSync(file, 'utf8') === content, `${path} is stale (the command tree changed): run \`${REGENERATE}\` and commit it`).toBe(true);
    }
  });

  it('keeps the man page date while its content is unchanged', async () => {
    const committed = readFileSync(join(ROOT, 'man/ops.1'), 'utf8');
    const files = await expectedFiles(ROOT, '2099-01-01');
    expect(manDate(files['man/ops.1']!)).toBe(manDate(committed));
  });

  it('`ops completion SHELL` prints the committed script; an unknown shell is a usage error', async () => {
    const env = isolatedEnv();
    for (const [shell, path] of [
      ['bash', 'completions/ops.bash'],
      ['zsh', 'completions/_ops'],
      ['fish', 'completions/ops.fish'],
    ] as const) {
      const r = await ops(['completion', shell], { env });
      expect(r.exitCode).toBe(0);
      expect(r.stdout + '\n').toBe(readFileSync(join(ROOT, path), 'utf8'));
    }
    const bad = await ops(['completion', 'tcsh'], { env });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('bash, zsh, fish');
  });

  it('`ops completion __values` prints nothing and exits 0 for an unknown kind', async () => {
    const r = await ops(['completion', '__values', 'nonsense'], { env: isolatedEnv() });
    expect(r).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
  });
});

/**
 * `ops serve --query-timeout / --query-max-rows / --query-max-mb` (the limits of an ad-hoc pipeline query,
 * services/pipelines/shared/query-limits.ts): a value that is not a positive number is a usage error (exit 2)
 * naming the flag, refused before anything listens. That good values reach the pipelines is
 * test/services/pipelines/adhoc-limits.test.ts's (through ServeOptions).
 */
import { describe, expect, test } from 'vitest';
import { isolatedEnv, tempDir } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';

describe('ops serve query limit flags', () => {
  test.each([
    ['--query-timeout', '0', /--query-timeout must be a positive number, not "0"/],
    ['--query-timeout', 'soon', /--query-timeout must be a positive number, not "soon"/],
    ['--query-max-rows', '2.5', /--query-max-rows must be a positive whole number, not "2.5"/],
    ['--query-max-mb', '-1', /--query-max-mb must be a positive number, not "-1"/],
  ])('%s %s is a usage error', async (flag, value, message) => {
    const r = await opsIn(['serve', '--port', '0', '--data-dir', tempDir('ops-query-limits-'), flag, value], { env: isolatedEnv() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

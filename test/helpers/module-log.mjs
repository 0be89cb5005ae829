// Loaded with `node --import` by test/e2e/cli-loading.test.ts: appends the URL of every module the process loads
// (ESM and the chunks of the bundle; node's own `node:` modules left out) to the file named by OPS_MODULE_LOG.
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (!url.startsWith('node:') && process.env.OPS_MODULE_LOG) appendFileSync(process.env.OPS_MODULE_LOG, url + '\\n');
  return next(url, context);
}`;
register('data:text/javascript,' + encodeURIComponent(hooks));

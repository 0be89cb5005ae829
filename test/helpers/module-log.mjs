// Loaded with `node --import` by test/e2e/cli-loading.test.ts: appends the URL of every module the process loads
// (ESM and the chunks of the bundle; node's own `node:` modules left out) to the file named by OPS_MODULE_LOG,
// and, as the process exits, each of node's public built-in modules it loaded, as `node:NAME` lines (from
// process.moduleLoadList: also those that bundled CommonJS code required), the files run as vm scripts (the
// bundle's CommonJS parts run with V8's code cache, core/code-cache.ts), and `process.stdin` if the process
// created its stdin stream (node creates it on first access of the property).
import { appendFileSync } from 'node:fs';
import { builtinModules, register } from 'node:module';
import vm from 'node:vm';
import { pathToFileURL } from 'node:url';

const hooks = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (!url.startsWith('node:') && process.env.OPS_MODULE_LOG) appendFileSync(process.env.OPS_MODULE_LOG, url + '\\n');
  return next(url, context);
}`;
register('data:text/javascript,' + encodeURIComponent(hooks));

const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options);
    const filename = typeof options === 'string' ? options : options?.filename;
    if (filename && process.env.OPS_MODULE_LOG) appendFileSync(process.env.OPS_MODULE_LOG, pathToFileURL(filename).href + '\n');
  }
};

const stdin = Object.getOwnPropertyDescriptor(process, 'stdin');
let stdinTaken = false;
Object.defineProperty(process, 'stdin', {
  ...stdin,
  get() {
    stdinTaken = true;
    return stdin.get.call(process);
  },
});

const publicBuiltins = new Set(builtinModules);
process.on('exit', () => {
  if (!process.env.OPS_MODULE_LOG) return;
  const loaded = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
  const lines = loaded.filter((name) => publicBuiltins.has(name)).map((name) => `node:${name}\n`);
  if (stdinTaken) lines.push('process.stdin\n');
  appendFileSync(process.env.OPS_MODULE_LOG, lines.join(''));
});

// Bundles the CLI (src/main.ts and everything it imports, npm packages included) into dist/cli/ with rolldown,
// after `tsc` has built dist/. Run by `npm run build` (hence at `prepare` and `pretest`); bin/ops loads
// dist/cli/main.js. Why: loading ~300 small modules (commander, undici's 50 files, chalk, conf with ajv...) through
// node's resolver cost a command 4-6x a bare `node -e 0`; one file per lazily loaded part costs a fraction.
//
// Rules of the output:
// - Each dynamic import (a command tree, a verb's heavy helper, a package loaded when needed) stays a chunk of its
//   own, loaded only when it runs: dist/cli/main.js holds only what every run needs.
// - `ops serve`'s server (src/services/**) is not bundled: it is imported from tsc's dist/services/, whose workers
//   and processes start from the files beside them (spawn.ts siblingModule). src/core/errors.ts is taken from
//   dist/ too, so that the server and the commands share one OpsError class (`instanceof` holds across the line).
// - Source maps beside each chunk; bin/ops runs node with --enable-source-maps so stack traces name src/ lines.
import { rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const out = join(root, 'dist', 'cli');
const services = join(src, 'services') + sep;
const shared = new Set([join(src, 'core', 'errors.ts'), join(src, 'core', 'errors.js')]);

/** `import('../../services/x.js')` (or core/errors.js) from a bundled module becomes an import of tsc's dist/services/x.js. */
const servicesFromDist = {
  name: 'services-from-dist',
  resolveId(source, importer) {
    if (!importer || !source.startsWith('.')) return null;
    const target = resolve(dirname(importer), source);
    if (!target.startsWith(services) && !shared.has(target)) return null;
    const built = relative(out, join(root, 'dist', relative(src, target)))
      .split(sep)
      .join('/');
    return { id: built.replace(/\.ts$/, '.js'), external: true };
  },
};

/**
 * undici's Client loads its HTTP/2 half (client-h2.js, and with it node:http2, tls and crypto: a tenth of a
 * command's start) on load, though it runs only on a connection that negotiated h2 (never for the CLI's plain
 * http, nor by default). Here it is loaded on that first use instead: the same function, called the same way.
 * The build fails if undici changes the line, rather than quietly loading it again.
 */
const H2_REQUIRE = "const connectH2 = require('./client-h2.js')";
const lazyUndiciH2 = {
  name: 'lazy-undici-h2',
  transform(code, id) {
    if (!id.split(sep).join('/').endsWith('/node_modules/undici/lib/dispatcher/client.js')) return null;
    if (!code.includes(H2_REQUIRE)) throw new Error(`bundle-cli: undici's client.js no longer has \`${H2_REQUIRE}\`: update lazyUndiciH2`);
    return { code: code.replace(H2_REQUIRE, "const connectH2 = (client, socket) => require('./client-h2.js')(client, socket)"), map: null };
  },
};

/**
 * commander loads node:child_process (and with it dgram, net's socket lists...) on load for its executable
 * subcommands, which ops has none of: loaded on the first spawn instead. The build fails if the line changes.
 */
const CHILD_PROCESS_REQUIRE = "const childProcess = require('node:child_process');";
const lazyCommanderChildProcess = {
  name: 'lazy-commander-child-process',
  transform(code, id) {
    if (!id.split(sep).join('/').endsWith('/node_modules/commander/lib/command.js')) return null;
    if (!code.includes(CHILD_PROCESS_REQUIRE)) throw new Error(`bundle-cli: commander's command.js no longer has \`${CHILD_PROCESS_REQUIRE}\`: update lazyCommanderChildProcess`);
    const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
    return { code: code.replace(CHILD_PROCESS_REQUIRE, lazy), map: null };
  },
};

rmSync(out, { recursive: true, force: true });
await build({
  input: { main: join(src, 'main.ts') },
  platform: 'node',
  logLevel: 'warn',
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  plugins: [servicesFromDist, lazyUndiciH2, lazyCommanderChildProcess],
  // chalk is loaded at once by output.ts and later by progress.ts: that it stays in the first chunk is meant
  onLog: (level, log, handler) => (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' ? undefined : handler(level, log)),
  output: {
    dir: out,
    format: 'esm',
    sourcemap: true,
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
  },
});

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
// - Node's built-in modules are taken with process.getBuiltinModule, never through ESM `import` (see
//   builtinsWithoutEsmFacade): a command loads no built-in it does not use, nor runs their lazy getters.
import { rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
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
 * A plugin that makes loads of a package lazy by replacing exact text in one of its files, each on the same lines
 * (so that source maps stay right). The build fails if a text is not there, rather than quietly loading it again.
 */
function rewrite(name, file, replacements) {
  return {
    name,
    transform(code, id) {
      if (!id.split(sep).join('/').endsWith(`/node_modules/${file}`)) return null;
      for (const [from, to] of replacements) {
        if (!code.includes(from)) throw new Error(`bundle-cli: ${file} no longer has \`${from}\`: update ${name}`);
        if (from.split('\n').length !== to.split('\n').length) throw new Error(`bundle-cli: ${name} must keep the lines of ${file}`);
        code = code.replace(from, to);
      }
      return { code, map: null };
    },
  };
}

/**
 * undici's Client loads its HTTP/2 half (client-h2.js, and with it node:http2, tls and crypto: a tenth of a
 * command's start) on load, though it runs only on a connection that negotiated h2 (never for the CLI's plain
 * http, nor by default): loaded on that first use instead, the same function called the same way. It also loads
 * node:http (and _http_agent, _http_client, _http_server...: ~3 ms) for two things: `http.maxHeaderSize`, the
 * default of the Client's `maxHeaderSize` (core/http.ts passes node's default unless node was told another), and,
 * in core/util.js, to tell an IncomingMessage apart when destroying a stream (which only exists once node:http is
 * loaded: the constructor's name is checked first). Both read node:http when they run.
 */
const lazyUndiciClient = rewrite('lazy-undici-client', 'undici/lib/dispatcher/client.js', [
  ["const connectH2 = require('./client-h2.js')", "const connectH2 = (client, socket) => require('./client-h2.js')(client, socket)"],
  ["const http = require('node:http')", "const lazyHttp = () => require('node:http')"],
  [
    `const getDefaultNodeMaxHeaderSize = http &&
  http.maxHeaderSize &&
  Number.isInteger(http.maxHeaderSize) &&
  http.maxHeaderSize > 0
  ? () => http.maxHeaderSize
  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') }`,
    `const getDefaultNodeMaxHeaderSize = () => {
  const { maxHeaderSize } = lazyHttp()
  if (Number.isInteger(maxHeaderSize) && maxHeaderSize > 0) return maxHeaderSize
  throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid')
}
`,
  ],
]);
const lazyUndiciUtilHttp = rewrite('lazy-undici-util-http', 'undici/lib/core/util.js', [
  ["const { IncomingMessage } = require('node:http')", "const lazyHttp = () => require('node:http')"],
  [
    'if (Object.getPrototypeOf(stream).constructor === IncomingMessage) {',
    "if (Object.getPrototypeOf(stream).constructor?.name === 'IncomingMessage' && Object.getPrototypeOf(stream).constructor === lazyHttp().IncomingMessage) {",
  ],
]);

/**
 * commander loads node:child_process (and with it dgram, net's socket lists...) on load for its executable
 * subcommands, which ops has none of: loaded on the first spawn instead.
 */
const lazyCommanderChildProcess = rewrite('lazy-commander-child-process', 'commander/lib/command.js', [
  ["const childProcess = require('node:child_process');", "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"],
]);

/**
 * An ESM `import ... from 'node:fs'` of a built-in module builds its ESM facade, which reads every export of the
 * module once: `node:process` creates process.stdin (a stream, and its modules) and `node:fs` loads its streams,
 * whether or not the command touches them (~5 ms of a command's CPU). The chunks take the built-ins through
 * `process.getBuiltinModule` instead (Node 20.16+: the very objects `require` answers), which reads nothing: each
 * `import` line of a built-in in a chunk becomes a `const` of the same names, on the same line (the source maps stay
 * right); rolldown's runtime gets its `__require` (only ever called for built-ins here: checked) the same way,
 * without loading node:module (a built-in this Node lacks falls to
 * `require`, which throws as before). The build fails if an import of a built-in is left in a form this does not know.
 */
const BUILTIN_IMPORT = /^import\s+(?:\*\s+as\s+([\w$]+)|([\w$]+)?\s*,?\s*(\{[^}]*\})?)\s+from\s+"(node:[\w/]+)";$/gm;
const RUNTIME_REQUIRE = 'var __require = /* #__PURE__ */ (() => createRequire(import.meta.url))();';
const builtinsWithoutEsmFacade = {
  name: 'builtins-without-esm-facade',
  renderChunk(code, chunk) {
    let out = code.replace(BUILTIN_IMPORT, (line, namespace, defaultName, named, id) => {
      const builtin = `globalThis.process.getBuiltinModule(${JSON.stringify(id)})`;
      const names = named ? named.replace(/\s+as\s+/g, ': ') : undefined;
      if (namespace) return `const ${namespace} = ${builtin};`;
      if (defaultName && names) return `const ${defaultName} = ${builtin}, ${names} = ${defaultName};`;
      return `const ${defaultName ?? names} = ${builtin};`;
    });
    if (out.includes(RUNTIME_REQUIRE)) {
      // a built-in this Node lacks (undici probes node:sqlite) is left to require, which throws as undici expects
      const lazyRequire = `globalThis.process.getBuiltinModule(id) ?? createRequire(import.meta.url)(id)`;
      out = out.replace(RUNTIME_REQUIRE, `var __require = (id) => ${lazyRequire};`);
      out = out.replace(
        /^const \{ createRequire \} = globalThis\.process\.getBuiltinModule\("node:module"\);$/m,
        'const createRequire = (url) => globalThis.process.getBuiltinModule("node:module").createRequire(url);',
      );
    }
    const left = /^import[^;]*"node:[^"]*";$/m.exec(out);
    if (left) throw new Error(`bundle-cli: ${chunk.fileName} still imports a built-in as \`${left[0]}\`: update builtinsWithoutEsmFacade`);
    for (const [, id] of out.matchAll(/\b__require\("([^"]+)"\)/g))
      if (!id.startsWith('node:') && !builtinModules.includes(id))
        throw new Error(`bundle-cli: ${chunk.fileName} requires ${id}, which is not a built-in: __require cannot take it with getBuiltinModule`);
    return out === code ? null : { code: out, map: null };
  },
};

/**
 * undici's Agent and request (core/undici-parts.ts) are built apart, as one CommonJS file named by its content's
 * hash, and http.ts's import of them becomes a module that runs that file with V8's code cache
 * (core/code-cache.ts): the biggest part of a command, undici, then comes compiled from the second run on.
 */
function httpClientFromCommonJs(fileName) {
  const id = '\0http-client.js';
  const undiciParts = join(src, 'core', 'undici-parts.ts');
  const codeCache = join(src, 'core', 'code-cache.ts');
  return {
    name: 'http-client-from-commonjs',
    resolveId(source, importer) {
      if (!importer || !source.startsWith('.')) return null;
      return resolve(dirname(importer), source).replace(/\.js$/, '.ts') === undiciParts ? id : null;
    },
    load(loading) {
      if (loading !== id) return null;
      return [
        `import { requireWithCodeCache } from ${JSON.stringify(codeCache)};`,
        `const parts = requireWithCodeCache(new URL('./' + ${JSON.stringify(fileName)}, import.meta.url));`,
        'export const Agent = parts.Agent;',
        'export const requestWith = parts.requestWith;',
      ].join('\n');
    },
  };
}

/**
 * Fewer, larger chunks: each file costs a command its own resolve, read, compile and link (about half a
 * millisecond), and the automatic split made 14-18 files of an everyday command, many of a few hundred bytes.
 * - `program`: the root command, the registry of trees and commander (what `ops --help` loads);
 * - `common`: what every command tree uses (core/, the context, the factory, help text, the wire formats, the
 *   CSV reader, chalk), loaded with the first tree. Not core/version and core/package-root (main.ts answers
 *   `--version --json` with them, without commander), nor code-cache (for the HTTP client only).
 * Each group takes only the modules it names (not their imports), so that no chunk pulls in another's.
 */
const groupTest = (pattern) => (id) => pattern.test(id.split(sep).join('/'));
const codeSplitting = {
  includeDependenciesRecursively: false,
  groups: [
    { name: 'program', priority: 2, test: groupTest(/\/src\/(program|commands\/registry)\.ts$|\/node_modules\/commander\//) },
    {
      name: 'common',
      priority: 1,
      test: groupTest(/\/src\/(core\/(?!version\.ts|package-root\.ts|code-cache\.ts|undici-parts\.ts)|wire\/|formats\/csv|context\.ts|commands\/(factory|help-text)\.ts)|\/node_modules\/chalk\//),
    },
  ],
};

/** Output that keeps names (stack traces and `constructor.name` read as before) but drops comments and blanks. */
const compact = { minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } }, comments: { legal: true, annotation: false, jsdoc: false } };

rmSync(out, { recursive: true, force: true });
const httpClient = await build({
  input: { 'http-client': join(src, 'core', 'undici-parts.ts') },
  platform: 'node',
  logLevel: 'warn',
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  plugins: [lazyUndiciClient, lazyUndiciUtilHttp],
  output: { dir: out, format: 'cjs', sourcemap: true, entryFileNames: '[name]-[hash].cjs', codeSplitting: false, ...compact },
});
const httpClientFile = httpClient.output.find((o) => o.type === 'chunk' && o.isEntry).fileName;

await build({
  input: { main: join(src, 'main.ts') },
  platform: 'node',
  // main.ts's exports stay as they are; its chunk may export more (the groups above need it)
  preserveEntrySignatures: 'allow-extension',
  logLevel: 'warn',
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  plugins: [servicesFromDist, httpClientFromCommonJs(httpClientFile), lazyUndiciClient, lazyUndiciUtilHttp, lazyCommanderChildProcess, builtinsWithoutEsmFacade],
  // chalk is loaded at once by output.ts and later by progress.ts: that it stays in the first chunk is meant
  onLog: (level, log, handler) => (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' ? undefined : handler(level, log)),
  output: {
    dir: out,
    format: 'esm',
    sourcemap: true,
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    codeSplitting,
    ...compact,
  },
});

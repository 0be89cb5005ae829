// ESLint (flat config): the recommended rules of ESLint and typescript-eslint, none of them type-aware, over
// the TypeScript sources, the tests and the benchmark scripts. A rule the house does not follow is turned off
// or tuned here with its reason; `npm run lint` runs this and `prettier --check` (formatting is prettier's job).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Node's globals, for the plain JavaScript files (TypeScript checks names itself). */
const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'queueMicrotask',
    'performance',
    'fetch',
    'AbortController',
    'AbortSignal',
    'TextEncoder',
    'TextDecoder',
    'structuredClone',
    'globalThis',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/', '.src-js/', 'node_modules/', 'coverage/', 'completions/', 'man/', '.data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: nodeGlobals },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_name` marks a parameter or binding that is there on purpose (a callback's shape, a rest-omit)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['test/**'],
    rules: {
      // tests read untyped JSON answers (`res.body.data[0].id`): the assertions on them are the type check
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['test/bench/**'],
    languageOptions: { globals: { global: 'readonly' } },
    rules: {
      // memory benchmarks drop their references on purpose (`body = null`) so that the GC can take them
      'no-useless-assignment': 'off',
    },
  },
);

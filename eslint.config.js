// ESLint (flat config): the recommended rules of ESLint and typescript-eslint over the TypeScript sources, the
// tests and the benchmark scripts, and three type-aware rules on the TypeScript files that catch real bugs in a
// server full of async code: a promise nobody awaits or catches (an unhandled rejection ends the process), a
// promise where a callback's void is expected, and a switch that forgets a member of the union it switches on. A rule the house does not follow is turned off
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
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // a `default:` branch counts as handling the rest (the house writes one where the rest is an error)
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
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

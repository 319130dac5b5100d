// ESLint 9 flat config: typescript-eslint's recommended rules (syntax only, not type-checked, so
// `npm run lint` stays fast) and the layer rule of DESIGN §1 (docs/architecture.md).
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';

const ROOT = dirname(fileURLToPath(import.meta.url));

const APP_SRC = 'apps/channel-service/src';
// Which feature folder may import which (eslint.layers.cjs); refused at load if the table has a cycle.
const { APP_FEATURES, layerOrder } = createRequire(import.meta.url)('./eslint.layers.cjs');
layerOrder(APP_FEATURES);
/** The element type of a feature folder (no `/`: the `outer` policy's `*` must match it). */
const feature = (name) => `app:${name}`;

const LIBS = ['qhorus-api', 'blocks-summarisation', 'blocks-channel-summary'];
const ALL_FEATURES = Object.keys(APP_FEATURES).map(feature);

/** The layers, innermost first, and every other top-level folder (so no import lands nowhere). */
const ELEMENTS = [
  { type: 'qhorus-api', pattern: 'libs/qhorus-api/**', partialMatch: false },
  { type: 'blocks-summarisation', pattern: 'libs/blocks-summarisation/**', partialMatch: false },
  { type: 'blocks-channel-summary', pattern: 'libs/blocks-channel-summary/**', partialMatch: false },
  { type: 'qhorus-client', pattern: 'libs/qhorus-client/**', partialMatch: false },
  { type: 'qhorus-langchain', pattern: 'libs/qhorus-langchain/**', partialMatch: false },
  // The CLI is an app, but speaks HTTP only: listed before `app`, which would match it too.
  { type: 'cli', pattern: 'apps/qhorus-cli/**', partialMatch: false },
  // The service's feature folders (APP_FEATURES), before `app`, which would match them too.
  ...Object.keys(APP_FEATURES).map((name) => ({ type: feature(name), pattern: `${APP_SRC}/${name}/**`, partialMatch: false })),
  // The rest of the service: its composition root (app.module.ts, bootstrap.ts, main.ts) and its unit tests.
  { type: 'app', pattern: 'apps/**', partialMatch: false },
  { type: 'migrations', pattern: 'migrations/**', partialMatch: false },
  { type: 'outer', pattern: ['test/**', 'bench/**', 'scripts/**', 'examples/**'], partialMatch: false },
];

/** Single files a policy names (elements are folders). */
const FILES = [
  // The app's connection settings: the one file of the app a migration may import (the CLI's data source).
  { category: 'app-connection', pattern: 'apps/channel-service/src/database/connection.ts' },
  // The app's unit tests: one checks that a migration's frozen copy still equals the app's rules.
  { category: 'app-test', pattern: 'apps/*/test/**' },
];

const LAYER_MESSAGE = 'DESIGN §1 layer rule: {{from.type}} may not import {{to.type}} (docs/architecture.md)';

/** Who may import whom: anything not allowed here is an error (`default: 'disallow'`). */
const LAYER_POLICIES = [
  mayImport('qhorus-api', []),
  mayImport('blocks-summarisation', ['qhorus-api']),
  mayImport('blocks-channel-summary', ['qhorus-api', 'blocks-summarisation']),
  // The app builds on every lib. It never imports migrations/: it runs them by path (database/connection.ts).
  // Each feature folder imports the ones APP_FEATURES lists; the composition root and the
  // service's unit tests, any of them.
  ...Object.entries(APP_FEATURES).map(([name, deps]) => mayImport(feature(name), [...deps.map(feature), ...LIBS])),
  mayImport('app', [...ALL_FEATURES, ...LIBS]),
  // A migration is frozen history: the libs' pure functions, and of the app only its connection
  // settings (migrations/data-source.ts, for the TypeORM CLI).
  mayImport('migrations', ['qhorus-api', 'blocks-summarisation']),
  { from: { element: { type: 'migrations' } }, allow: { to: { file: { categories: 'app-connection' } } } },
  { from: { file: { categories: 'app-test' } }, allow: { to: { element: { type: 'migrations' } } } },
  // The client ships on its own: nothing of ours. Its adapters and the CLI build on it alone.
  mayImport('qhorus-client', []),
  mayImport('qhorus-langchain', ['qhorus-client']),
  mayImport('cli', ['qhorus-client']),
  // Tests, benchmarks, scripts and examples sit outside the layers and may use any of them.
  mayImport('outer', ['*']),
];

/** A policy: files of element `from` may import their own element and the elements `to`. */
function mayImport(from, to) {
  return { from: { element: { type: from } }, allow: { to: { element: { type: [from, ...to] } } } };
}

/** `_`-prefixed names are deliberately unused (a positional argument, a rest sibling). */
const UNUSED = { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true };

export default tseslint.config(
  {
    ignores: ['node_modules/', 'dist/', 'libs/*/dist/', 'coverage/', '.data/', '**/*.d.ts'],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
  },
  {
    files: ['**/*.{ts,js,cjs,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-unused-vars': ['error', UNUSED] },
  },
  {
    files: ['**/*.ts'],
    rules: { 'no-unused-vars': 'off', '@typescript-eslint/no-unused-vars': ['error', UNUSED] },
  },
  {
    // Tests read untyped JSON (HTTP bodies, logs, OpenAPI documents) and pin its shape with expect.
    files: ['test/**/*.ts', '**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.{js,cjs}'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    // The dashboard runs in the browser, as ES modules.
    files: ['apps/channel-service/src/dashboard/public/**/*.js'],
    languageOptions: { sourceType: 'module', globals: { ...globals.browser } },
  },
  {
    files: ['**/*.{ts,js,cjs,mjs}'],
    plugins: { boundaries },
    settings: {
      'boundaries/root-path': ROOT,
      'boundaries/elements': ELEMENTS,
      'boundaries/files': FILES,
      'boundaries/include': ['apps/**', 'libs/**', 'migrations/**', 'test/**', 'bench/**', 'scripts/**', 'examples/**'],
      'import/resolver': { [join(ROOT, 'eslint.resolver.cjs')]: {} },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', checkUnknownLocals: true, message: LAYER_MESSAGE, policies: LAYER_POLICIES }],
    },
  },
  {
    // DESIGN §1: a lib's logic is plain TypeScript; Nest wiring lives only in its *.module.ts.
    files: ['libs/*/src/**/*.ts'],
    ignores: ['libs/*/src/**/*.module.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['@nestjs/*'], message: "DESIGN §1: Nest is imported in a lib only by its *.module.ts (docs/architecture.md)" }],
      }],
    },
  },
);

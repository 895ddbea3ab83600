// Lint rules of the build: typescript-eslint's type-checked rules, and the import boundaries that
// keep the layering of docs/architecture.md (each arrow of a model call points one way).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const fastify = ['fastify', 'fastify/*', '@fastify/*'];
const databases = ['pg', 'pg/*', 'better-sqlite3'];
const drivers = ['undici', 'undici/*', ...databases];
/** The OpenTelemetry SDK and API: only src/observability (and the wiring) use them; the gateway gets a port. */
const telemetry = ['@opentelemetry/*'];
/** The wire dialects' code; their registry (src/wire/index.ts, which imports nothing) is open to every layer. */
const dialects = ['**/wire/*', '!**/wire/index.js', '**/wire/*/*'];

/**
 * One `no-restricted-imports` block per layer: the src/ folders and packages its files may not import.
 * A file matches one layer only (ESLint would let a later block replace an earlier one's patterns).
 */
function boundaries(layers) {
  return layers.map(({ files, folders, paths = [], packages, why }) => ({
    files: files.map((f) => `${f}/*.ts`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: [...folders.flatMap((folder) => [`**/${folder}/*`, `**/${folder}`]), ...paths], message: why },
            { group: packages, message: why },
          ],
        },
      ],
    },
  }));
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'web/dist/**', 'data/**', 'bench/results/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // async is how Fastify plugins, adapter methods and test generators declare a promise-returning
      // contract; a body that happens not to await is not a mistake there.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      // node:test's test() and describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite', 'before', 'after'] },
          ],
        },
      ],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  ...boundaries([
    {
      files: ['src/canonical/**', 'src/domain/**', 'src/filters/**', 'src/catalog/**'],
      folders: ['gateway', 'http', 'store', 'providers', 'upstream'],
      paths: dialects,
      packages: [...fastify, ...drivers, ...telemetry],
      why: 'pure layers (canonical, domain, filters, catalog) reach neither up into the gateway, the HTTP edge or a wire dialect nor into a driver',
    },
    {
      files: ['src/wire/**'],
      folders: ['domain', 'store', 'gateway', 'http', 'providers'],
      packages: [...fastify, ...drivers, ...telemetry],
      why: 'wire dialects translate between canonical calls and one format: they know nothing of keys, budgets, the store, the use case, the HTTP edge or the adapters that use them',
    },
    {
      files: ['src/providers/**'],
      folders: ['domain', 'store', 'gateway', 'http'],
      packages: [...fastify, ...databases, ...telemetry],
      why: 'adapters (a dialect over the transport) know nothing of keys, budgets, the store or the HTTP edge',
    },
    {
      files: ['src/upstream/**'],
      folders: ['domain', 'store', 'gateway', 'http', 'providers', 'wire'],
      packages: [...fastify, ...databases, ...telemetry],
      why: 'the transport (pools, auth, framing) knows no dialect, adapter, key, budget, store or HTTP edge',
    },
    {
      files: ['src/gateway/**'],
      folders: ['http', 'store'],
      packages: [...fastify, ...databases, ...telemetry],
      why: 'the model-call use case sits under the HTTP edge and reaches the store only through domain interfaces, and traces only through its CallTracer port',
    },
    {
      files: ['src/store/**'],
      folders: ['gateway', 'http', 'providers', 'upstream'],
      paths: dialects,
      packages: [...fastify, 'undici'],
      why: 'the store implements repositories; it knows no gateway, HTTP edge or upstream',
    },
    {
      files: ['src/observability/**', 'src/errors/**', 'src/config/**'],
      folders: ['http'],
      packages: fastify,
      why: 'only src/http and the app wiring (app.ts, server.ts) import Fastify and the HTTP edge',
    },
    {
      // The CLI prints what the API answers, so it shares the HTTP presenters (plain functions, no Fastify).
      files: ['src/cli/**'],
      folders: ['http/plugins', 'http/routes', 'http/schemas'],
      packages: fastify,
      why: 'only src/http and the app wiring (app.ts, server.ts) import Fastify and the HTTP edge',
    },
  ]),
);

// ESLint (flat config): typescript-eslint's recommended rules everywhere, React hooks rules for the
// web app, and Nx module boundaries: apps import libs only, and a service reaches another service
// only through libs/contracts (tags in each package.json's "nx" field).
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Optional DTO fields use Optional() from libs/contracts: IsOptional lets null through to the services.
const noIsOptional = {
  name: 'class-validator',
  importNames: ['IsOptional'],
  message: 'use Optional() from @tinkerdesk/contracts (null is not absent)',
};

// One way to touch data (ARCHITECTURE.md, "Data"): TypeORM and a service's data source are imported
// only where data is touched or the connection is made.
const DATA_ACCESS_FILES = [
  'apps/*/src/**/*.repository.ts',
  'apps/*/src/**/*.entity.ts',
  // migrations, data-source.ts and abstract entity bases (single-use-record.ts)
  'apps/*/src/database/**',
  // app.module.ts registers TypeORM (ServiceDatabaseModule.forRoot(dataSourceOptions(...)))
  'apps/*/src/app.module.ts',
  // process entry points that open the database outside Nest: the migrate and operator commands and
  // the conversion worker (which builds its repository by hand until it moves onto @nestjs/bullmq)
  'apps/*/src/migrate.ts',
  'apps/*/src/cli.ts',
  'apps/conversion/src/jobs/conversion.worker.ts',
  // commerce's outbox wiring hands its data source to the relay and listeners of libs/persistence
  'apps/commerce/src/events/commerce-outbox.ts',
  // tests may open a service's database to set up or inspect rows
  '**/*.spec.ts',
  '**/*.int-spec.ts',
  '**/*.medium-spec.ts',
  'apps/*/test/**',
];
const dataAccess = {
  patterns: [
    {
      group: ['typeorm', 'typeorm/*', '@nestjs/typeorm'],
      message: 'only repositories, entities, migrations and libs/persistence import TypeORM: call the repository',
    },
    {
      group: ['**/data-source', '**/data-source.js'],
      message: 'only repositories, entities, migrations and the module that registers TypeORM use the data source',
    },
  ],
};

// Commerce's feature modules (docs/architecture.md, "Commerce's modules"): a feature reads and writes only
// its own tables, so a file imports repositories and entities of its own folder only; another feature's
// data is reached through that feature's exported service. (The data source's entity list, in database/,
// is the one place that names every entity.)
const otherFeaturesData = {
  regex: '^\\.\\./[^./][^/]*/[^/]*\\.(repository|entity)(\\.js)?$',
  message: "another feature's repository or entity: call that feature's service (it owns its tables)",
};
const COMMERCE_SOURCES = ['apps/commerce/src/**/*.ts'];
const COMMERCE_UNCHECKED = ['apps/commerce/src/database/**', '**/*.spec.ts', '**/*.medium-spec.ts', '**/*.int-spec.ts'];

// Nx module boundaries (tags in each package.json's "nx" field and tests/project.json).
const boundaries = {
  enforceBuildableLibDependency: false,
  allow: [],
  // The account page loads @tinkerdesk/contracts/time-zones (90 kB of zone names) lazily; the
  // small browser-safe entry @tinkerdesk/contracts/web is imported statically, and may be.
  checkDynamicDependenciesExceptions: ['@tinkerdesk/contracts'],
  depConstraints: [
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', 'type:test'] },
    { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
    { sourceTag: 'type:test', onlyDependOnLibsWithTags: ['type:lib'] },
    { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:shared', 'scope:web'] },
    { sourceTag: 'scope:service', onlyDependOnLibsWithTags: ['scope:shared', 'scope:server', 'scope:test'] },
    { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:server', 'scope:test'] },
    { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['scope:shared', 'scope:server'] },
  ],
};

// The web app's layers point one way: app -> features -> tools -> shared (routes/paths.ts counts as
// shared; routes/resources.ts, built from the tool registry, is app level). A relative import that
// climbs into a higher layer's folder is refused; the rule's options replace the web app's, so each
// layer repeats the contracts rule.
const webContracts = { name: '@tinkerdesk/contracts', message: "import from '@tinkerdesk/contracts/web' (types and constants, no Nest)" };
const higherLayers = (folders, from) => [
  'error',
  {
    paths: [webContracts],
    patterns: [
      {
        regex: `^(\\.\\.?/)+(.*/)?(${folders.join('|')})(/|$)`,
        message: `${from} sits below ${folders.join(' and ')}: layers point one way, app -> features -> tools -> shared (ARCHITECTURE.md, Web app)`,
      },
    ],
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'coverage/**', 'test-results/**', 'playwright-report/**', '.nx/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-unsafe-function-type': 'off',
      'no-restricted-imports': ['error', { paths: [noIsOptional] }],
      '@nx/enforce-module-boundaries': ['error', boundaries],
    },
  },
  {
    // The services and the server libraries touch data only through repositories (libs/persistence and the
    // test helpers in libs/testing make the connection).
    files: ['apps/{identity,terminals,conversion,gateway,commerce}/**/*.ts', 'libs/*/src/**/*.ts'],
    ignores: [...DATA_ACCESS_FILES, 'libs/persistence/**', 'libs/testing/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noIsOptional], ...dataAccess }] },
  },
  {
    files: COMMERCE_SOURCES,
    ignores: [...DATA_ACCESS_FILES, ...COMMERCE_UNCHECKED],
    rules: { 'no-restricted-imports': ['error', { paths: [noIsOptional], patterns: [...dataAccess.patterns, otherFeaturesData] }] },
  },
  {
    // Commerce's repositories and entities (TypeORM allowed): still only their own feature's.
    files: ['apps/commerce/src/**/*.repository.ts', 'apps/commerce/src/**/*.entity.ts'],
    ignores: COMMERCE_UNCHECKED,
    rules: { 'no-restricted-imports': ['error', { paths: [noIsOptional], patterns: [otherFeaturesData] }] },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The browser takes the server's types from the contracts' browser-safe entries only (the main
      // entry carries Nest's decorators and class-validator).
      'no-restricted-imports': ['error', { paths: [webContracts] }],
    },
  },
  { files: ['apps/web/src/features/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': higherLayers(['app'], 'a feature') } },
  { files: ['apps/web/src/tools/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': higherLayers(['app', 'features'], 'a tool') } },
  {
    files: ['apps/web/src/shared/**/*.{ts,tsx}', 'apps/web/src/routes/paths.ts'],
    rules: { 'no-restricted-imports': higherLayers(['app', 'features', 'tools'], 'shared code') },
  },
  {
    // Components call the API through the typed client in their feature's api module, never by a path
    // (component tests do name paths: they assert on the requests made).
    files: ['apps/web/src/**/*.tsx'],
    ignores: ['apps/web/src/**/*.spec.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[value=/^\\/v1\\//]',
          message: 'call /v1 through the typed client (@tinkerdesk/api-client) in the feature api module',
        },
        {
          selector: 'TemplateElement[value.raw=/^\\/v1\\//]',
          message: 'call /v1 through the typed client (@tinkerdesk/api-client) in the feature api module',
        },
      ],
    },
  },
  {
    // What @tinkerdesk/contracts/web re-exports stays free of Nest, class-validator and Node.
    files: ['libs/contracts/src/{web,errors,health,responses,conversion-formats,*-views}.ts', 'libs/api-client/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@nestjs/*',
                'class-validator',
                'class-transformer',
                'node:*',
                './identity.js',
                './commerce.js',
                './conversion.js',
                './input.js',
                './rpc.js',
                './subjects.js',
              ],
              message: 'the browser-safe entry of the contracts imports no Nest, validation or Node code',
            },
          ],
        },
      ],
    },
  },
  {
    // The repository's scripts (scripts/*.mjs) belong to no Nx project; their tests import them by path.
    files: ['tests/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', { ...boundaries, allow: ['../../scripts/*'] }] },
  },
  prettier,
);

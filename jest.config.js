// One Jest for the whole repo, in ESM mode (NestJS 12 is ESM-only). SWC strips types and keeps
// decorator metadata; type checking is `npm run typecheck` (tsc -b), not the test runner's job.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true, decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

const common = {
  rootDir: '.',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: { '^.+\\.(t|j)sx?$': swc },
  moduleNameMapper: {
    '^@tinkerdesk/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
    '^@tinkerdesk/tools/([a-z0-9-]+)$': '<rootDir>/libs/tools/src/$1.ts',
    '^@tinkerdesk/contracts/time-zones$': '<rootDir>/libs/contracts/src/time-zones.ts',
    '^@tinkerdesk/contracts/web$': '<rootDir>/libs/contracts/src/web.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/apps/.*/dist/', '<rootDir>/libs/.*/dist/'],
};

export default {
  projects: [
    { ...common, displayName: 'unit', testEnvironment: 'node', testMatch: ['<rootDir>/**/*.spec.ts', '<rootDir>/**/*.spec.tsx'] },
    // Medium: the gateway in-process under supertest, against real NATS and the services, which
    // globalSetup starts once for the run (libs/testing/src/shared-platform.ts), not once per file.
    {
      ...common,
      displayName: 'medium',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/**/*.medium-spec.ts'],
      globalSetup: '<rootDir>/tests/medium/global-setup.ts',
      globalTeardown: '<rootDir>/tests/medium/global-teardown.ts',
    },
    {
      ...common,
      displayName: 'integration',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/**/*.int-spec.ts'],
      // Migrates the services once into a template database; each file's platform copies it.
      globalSetup: '<rootDir>/tests/integration/global-setup.ts',
      globalTeardown: '<rootDir>/tests/integration/global-teardown.ts',
    },
  ],
  // A global option (Jest ignores it inside a project): integration tests hash passwords with argon2id
  // and start services, which on a busy 2-core machine can pass the default 5 s.
  testTimeout: 60000,
};

/**
 * One Jest configuration for the workspace. Nest 12 is ESM-only, so tests run as native ESM
 * (`--experimental-vm-modules`, see package.json); ts-jest transpiles each file on its own (isolatedModules).
 * Type errors are caught by `npm run typecheck`, not here.
 */
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^@cpc/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.json' }],
  },
  testMatch: ['<rootDir>/apps/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts', '<rootDir>/tools/**/*.spec.ts'],
  testTimeout: 30000,
  // nats-server present, and a PostgreSQL server for the whole run (an embedded one when none answers).
  globalSetup: '<rootDir>/tools/first-run/jest-global-setup.mjs',
  globalTeardown: '<rootDir>/tools/first-run/jest-global-teardown.mjs',
  // Jest's default on two cores is one worker; the integration and end-to-end files mostly wait on PostgreSQL, NATS
  // and the services they start, and each has its own database and NATS server, so two at a time run side by side
  // (the whole run: 505 s with one worker, 309 s with two, on the 2-core development machine).
  maxWorkers: 2,
};

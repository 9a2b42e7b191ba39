// The server's jest project: Node environment, TypeScript through swc, tests under test/ mirroring src/.
// With KABARI_JEST_BATCHES=1 (`npm test` sets it) the files run in batches (test-batches.js); otherwise each file
// runs on its own and the batches do not run.
const { serverTestBatches } = require('./test-batches');

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const batches = process.env.KABARI_JEST_BATCHES === '1' ? serverTestBatches() : undefined;

/** @type {import('jest').Config} */
module.exports = {
  displayName: 'server',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    batches ? `/test/(${batches.batches.flat().map(escape).join('|')})$` : '/test/batches/',
  ],
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      },
    ],
    // Node 20.19+ require()s these ESM-only dependencies (of @fastify/static 10 under swagger-ui, and of
    // light-my-request behind app.inject) natively; jest's loader cannot before Node 24.9, so they are
    // compiled to CommonJS for the tests.
    '/(content-disposition|cookie)/dist/.+\\.js$': ['@swc/jest', { module: { type: 'commonjs' } }],
    // PGlite's CommonJS build loads Node built-ins with import(), which jest's VM refuses without
    // --experimental-vm-modules; swc turns those into require().
    '/@electric-sql/pglite/dist/.+\\.cjs$': ['@swc/jest', { module: { type: 'commonjs' }, jsc: { target: 'es2022' } }],
    // kdbush and geokdbush (the reverse geocoder's index) are ESM only, like the modules above.
    '/node_modules/(kdbush|geokdbush|tinyqueue)/.+\\.js$': ['@swc/jest', { module: { type: 'commonjs' } }],
  },
  // The rules the browser applies too, from their source (the build compiles them into dist/node_modules).
  moduleNameMapper: { '^@kabari/rules/(.*)$': '<rootDir>/../rules/src/$1' },
  transformIgnorePatterns: [
    '/node_modules/(?!((@fastify/static|light-my-request)/node_modules/)?(content-disposition|cookie)/|@electric-sql/pglite/|kdbush/|geokdbush/|tinyqueue/)',
  ],
  // Creates (or finds) the PostgreSQL server the database tests also run on.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/test/support/jest-setup.ts'],
};

// The repository's own tooling (lint configuration, orchestration scripts): Node environment, TypeScript through swc.
/** @type {import('jest').Config} */
module.exports = {
  displayName: 'tooling',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
};

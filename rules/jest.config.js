// The rules' unit tests: Node environment, TypeScript through swc, beside the rules in src/.
/** @type {import('jest').Config} */
module.exports = {
  displayName: 'rules',
  rootDir: __dirname,
  roots: ['<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
};

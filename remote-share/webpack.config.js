const path = require('node:path');
const { appIn } = require('../apps');
const { createConfig } = require('../webpack/create-config');
const { sharedDependencies } = require('../webpack/shared-dependencies');
const { exposes } = require('./exposes');

// The recipient's pages use React and nothing else of the singletons: no router, i18next, store or antd. Declaring
// only React keeps the containers small (every shared module adds its registration and fallback to them), and the
// helpers the pages take from @kabari/shared are stateless functions, bundled here rather than negotiated.
const singletons = sharedDependencies();
const shared = Object.fromEntries(['react', 'react/jsx-runtime'].map((name) => [name, singletons[name]]));

const app = {
  dir: __dirname,
  ...appIn(path.basename(__dirname)),
  exposes,
  shared,
  title: 'Kabari · remote-share (standalone)',
};

// The container the host's app loads (remoteEntry.js and mf-manifest.json, with the federation runtime).
const enhanced = createConfig({ ...app, entry: './src/index.ts' });
// The same pages in a light container (light/remoteEntry.js, webpack's own Module Federation), which the host's
// recipient entry loads: a phone opening a consent link does not pay ~25 KB gzip for the federation runtime.
const light = createConfig({
  ...app,
  federationName: app.lightFederationName,
  container: 'light',
  distFolder: 'light',
  clean: false,
});

module.exports = (env, argv) => {
  const main = { ...enhanced(env, argv), name: 'remote' };
  if (argv.mode !== 'production') return main;
  // After the main build, which empties dist first.
  return [main, { ...light(env, argv), name: 'light', dependencies: ['remote'] }];
};

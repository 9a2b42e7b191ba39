const path = require('node:path');
const { appIn } = require('../apps');
const { createConfig } = require('../webpack/create-config');
const { BuildInfoPlugin } = require('./build-info-plugin');
const { StaticFilesPlugin } = require('./static-files-plugin');
const { sharedDependencies } = require('../webpack/shared-dependencies');

const hostConfig = createConfig({
  dir: __dirname,
  ...appIn(path.basename(__dirname)),
  entry: './src/index.ts',
  title: 'Kabari',
  publicPath: '/',
  webAppManifest: true,
});

// The recipient's pages (/enter-link, /location-failed, /share) load a light entry of their own, built apart
// (src/recipient-index.ts): React and the page, without the app's router, i18next, stores or antd. It loads
// remote-share's light container (remote-share/webpack.config.js) with webpack's own Module Federation, which shares
// React in a few hundred bytes where the federation runtime takes ~25 KB gzip.
const singletons = sharedDependencies();
const recipientConfig = createConfig({
  dir: __dirname,
  federationName: 'kabari_host_recipient',
  container: 'light',
  port: 3000,
  entry: './src/recipient-index.ts',
  entryName: 'recipient',
  htmlFilename: 'recipient.html',
  title: 'Kabari',
  publicPath: '/',
  clean: false,
  shared: Object.fromEntries(
    ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/client'].map((name) => [name, singletons[name]]),
  ),
});

module.exports = (env, argv) => {
  const app = { ...hostConfig(env, argv), name: 'app' };
  app.plugins.push(new BuildInfoPlugin({ routeRulesFile: path.join(__dirname, 'route-rules.json') }));
  app.plugins.push(new StaticFilesPlugin({ dir: path.join(__dirname, 'static') }));
  // In development the app's entry serves the recipient's pages too (they are ordinary routes of it).
  if (argv.mode !== 'production') return app;
  // After the app's build, which empties dist first.
  return [app, { ...recipientConfig(env, argv), name: 'recipient', dependencies: ['app'] }];
};

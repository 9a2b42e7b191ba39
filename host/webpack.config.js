const path = require('node:path');
const { appIn } = require('../apps');
const { createConfig } = require('../webpack/create-config');
const { BuildInfoPlugin } = require('./build-info-plugin');

const hostConfig = createConfig({
  dir: __dirname,
  ...appIn(path.basename(__dirname)),
  entry: './src/index.ts',
  title: 'Kabari',
  publicPath: '/',
});

module.exports = (env, argv) => {
  const config = hostConfig(env, argv);
  config.plugins.push(new BuildInfoPlugin({ routeRulesFile: path.join(__dirname, 'route-rules.json') }));
  return config;
};

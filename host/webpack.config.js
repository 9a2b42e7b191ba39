const path = require('node:path');
const { createConfig } = require('../webpack/create-config');
const { BuildInfoPlugin } = require('./build-info-plugin');

const hostConfig = createConfig({
  dir: __dirname,
  federationName: 'kabari_host',
  port: 3000,
  entry: './src/index.ts',
  title: 'Kabari',
  publicPath: '/',
});

module.exports = (env, argv) => {
  const config = hostConfig(env, argv);
  config.plugins.push(new BuildInfoPlugin({ routeRulesFile: path.join(__dirname, 'route-rules.json') }));
  return config;
};

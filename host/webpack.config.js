const { createConfig } = require('../webpack/create-config');

module.exports = createConfig({
  dir: __dirname,
  federationName: 'kabari_host',
  port: 3000,
  entry: './src/index.ts',
  title: 'Kabari',
  publicPath: '/',
});

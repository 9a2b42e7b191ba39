const { createConfig } = require('../webpack/create-config');
const { exposes } = require('./exposes');

module.exports = createConfig({
  dir: __dirname,
  federationName: 'kabari_search',
  port: 3001,
  entry: './src/index.ts',
  exposes,
  title: 'Kabari · remote-search (standalone)',
});

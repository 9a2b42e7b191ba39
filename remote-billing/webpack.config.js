const { createConfig } = require('../webpack/create-config');
const { exposes } = require('./exposes');

module.exports = createConfig({
  dir: __dirname,
  federationName: 'kabari_billing',
  port: 3003,
  entry: './src/index.ts',
  exposes,
  title: 'Kabari · remote-billing (standalone)',
});

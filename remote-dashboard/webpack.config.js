const { createConfig } = require('../webpack/create-config');
const { exposes } = require('./exposes');

module.exports = createConfig({
  dir: __dirname,
  federationName: 'kabari_dashboard',
  port: 3002,
  entry: './src/index.ts',
  exposes,
  title: 'Kabari · remote-dashboard (standalone)',
});

const { createConfig } = require('../webpack/create-config');
const { exposes } = require('./exposes');

module.exports = createConfig({
  dir: __dirname,
  federationName: 'kabari_share',
  port: 3004,
  entry: './src/index.ts',
  exposes,
  title: 'Kabari · remote-share (standalone)',
});

const path = require('node:path');
const { appIn } = require('../apps');
const { createConfig } = require('../webpack/create-config');
const { exposes } = require('./exposes');

module.exports = createConfig({
  dir: __dirname,
  ...appIn(path.basename(__dirname)),
  entry: './src/index.ts',
  exposes,
  title: 'Kabari · remote-operator (standalone)',
});

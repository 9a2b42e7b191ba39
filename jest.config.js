// One jest run for every workspace: each project keeps its own config beside its code.
const os = require('node:os');
const { webApps } = require('./apps');

/** @type {import('jest').Config} */
module.exports = {
  // Jest's default (cores - 1) is a single worker on a 2-core machine, where the suites spend much of their time
  // waiting on PGlite, PostgreSQL and jsdom: two workers took the run from about 5 to about 3 minutes there, and a
  // third fills what the two leave idle (the whole run 276 s against 301 s with two, on an idle 2-core machine).
  maxWorkers: Math.max(3, os.availableParallelism()),
  projects: ['shared', ...webApps, 'server', 'scripts'].map((folder) => `<rootDir>/${folder}/jest.config.js`),
};

// One jest run for every workspace: each project keeps its own config beside its code.
const os = require('node:os');
const { webApps } = require('./apps');

/** @type {import('jest').Config} */
module.exports = {
  // Jest's default (cores - 1) is a single worker on a 2-core machine, where the suites spend much of their time
  // waiting on PGlite, PostgreSQL and jsdom: two workers there took the run from about 5 to about 3 minutes. A third
  // was quicker on a warm, idle machine (276 s against 301 s) but slower in two whole runs from a fresh clone, where
  // every file is compiled anew (jest 401 s and 354 s, against 338 s with two beside the build).
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  projects: ['rules', 'shared', ...webApps, 'server', 'scripts'].map((folder) => `<rootDir>/${folder}/jest.config.js`),
};

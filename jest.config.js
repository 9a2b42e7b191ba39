// One jest run for every workspace: each project keeps its own config beside its code.
/** @type {import('jest').Config} */
module.exports = {
  projects: [
    '<rootDir>/shared/jest.config.js',
    '<rootDir>/host/jest.config.js',
    '<rootDir>/remote-search/jest.config.js',
    '<rootDir>/remote-dashboard/jest.config.js',
    '<rootDir>/remote-billing/jest.config.js',
    '<rootDir>/remote-share/jest.config.js',
    '<rootDir>/server/jest.config.js',
  ],
};

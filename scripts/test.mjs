// `npm test`: everything: lint, format and type-check side by side while the production build is made; then jest
// (every workspace, the server on PGlite and on PostgreSQL); then Playwright against that build.
import fs from 'node:fs';
import path from 'node:path';
import { bin, nodeBin, repoRoot, run, runLogged } from './lib/run.mjs';

const tmp = path.join(repoRoot, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
const started = Date.now();
const skipE2e = process.argv.includes('--no-e2e');

/** Runs node scripts side by side, each with its output in a file printed when it ends; the first failed exit code. */
async function allOf(steps) {
  const results = await Promise.all(
    steps.map(async ([label, args]) => {
      const logFile = path.join(tmp, `${label}.log`);
      const result = await runLogged(nodeBin, args, logFile);
      process.stdout.write(fs.readFileSync(logFile, 'utf8'));
      console.log(
        result.code === 0
          ? `✓ ${label} (${result.seconds}s)`
          : `✗ ${label} failed (exit ${result.code}, ${result.seconds}s)`,
      );
      return result.code;
    }),
  );
  return results.find((code) => code !== 0);
}

// The production build the end-to-end tests run against is made while the checks run, and jest then has the machine
// to itself: beside jest, the build (about 3.5 minutes there) made jest's part take about 6.4 minutes, against about
// 4 minutes for jest alone. Its output goes to a file, shown if it fails.
const buildLog = path.join(tmp, 'build.log');
const building = skipE2e
  ? undefined
  : runLogged(nodeBin, ['scripts/build.mjs'], buildLog, { env: { ...process.env, BUILD_CONCURRENCY: '1' } });

// The checks are independent and mostly single-threaded: side by side they take the time of the longest.
const checksFailed = await allOf([
  ['lint', [bin('eslint', 'bin/eslint.js'), '--max-warnings=0', '.']],
  ['import circles', ['scripts/import-cycles.mjs']],
  ['dead code', [bin('knip', 'bin/knip.js'), '--no-progress']],
  ['format', [bin('prettier', 'bin/prettier.cjs'), '--check', '--log-level=warn', '.']],
  ['type-check', ['scripts/typecheck.mjs']],
]);
if (checksFailed !== undefined) {
  // The build is not left behind.
  await building;
  process.exit(checksFailed);
}

const jestReport = path.join(tmp, 'jest-report.json');
const jestCode = await run(nodeBin, [bin('jest', 'bin/jest.js'), '--json', `--outputFile=${jestReport}`], {
  env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1' },
});
const jest = JSON.parse(fs.readFileSync(jestReport, 'utf8'));
let passed = jest.numPassedTests;
let failed = jest.numFailedTests + (jestCode !== 0 && jest.numFailedTests === 0 ? 1 : 0);
let skipped = jest.numPendingTests + jest.numTodoTests;
console.log(`jest: ${jest.numPassedTests} passed, ${jest.numFailedTests} failed, ${skipped} skipped`);

if (!skipE2e && failed === 0) {
  const build = await building;
  if (build.code !== 0) {
    process.stdout.write(fs.readFileSync(buildLog, 'utf8'));
    console.error(`✗ build failed (exit ${build.code}, ${build.seconds}s)`);
    process.exit(build.code);
  }
  console.log(`✓ build, beside the checks (${build.seconds}s)`);
  const e2eReport = path.join(tmp, 'playwright-report.json');
  const e2eCode = await run(nodeBin, [bin('@playwright/test', 'cli.js'), 'test', '--reporter=list,json'], {
    cwd: path.join(repoRoot, 'e2e'),
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport },
  });
  if (fs.existsSync(e2eReport)) {
    const { stats } = JSON.parse(fs.readFileSync(e2eReport, 'utf8'));
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
    skipped += stats.skipped;
    console.log(`playwright: ${stats.expected} passed, ${stats.unexpected} failed, ${stats.skipped} skipped`);
  }
  if (e2eCode !== 0 && failed === 0) failed = 1;
}

// A build still running (jest failed first) is not left behind.
await building;
const minutes = ((Date.now() - started) / 60000).toFixed(1);
console.log(`\nAll tests (${minutes} min):`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);

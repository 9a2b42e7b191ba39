// `npm test`: everything, in order: lint and format, type-check, jest (every workspace, the
// server on PGlite and on PostgreSQL), the production build, then Playwright against it.
import fs from 'node:fs';
import path from 'node:path';
import { bin, nodeBin, repoRoot, run, runOrExit } from './lib/run.mjs';

const tmp = path.join(repoRoot, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
const started = Date.now();
const skipE2e = process.argv.includes('--no-e2e');

await runOrExit('lint', nodeBin, [bin('eslint', 'bin/eslint.js'), '--max-warnings=0', '.']);
await runOrExit('import circles', nodeBin, ['scripts/import-cycles.mjs']);
await runOrExit('dead code', nodeBin, [bin('knip', 'bin/knip.js'), '--no-progress']);
await runOrExit('format', nodeBin, [bin('prettier', 'bin/prettier.cjs'), '--check', '--log-level=warn', '.']);
await runOrExit('type-check', nodeBin, ['scripts/typecheck.mjs']);

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
  await runOrExit('build', nodeBin, ['scripts/build.mjs']);
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

const minutes = ((Date.now() - started) / 60000).toFixed(1);
console.log(`\nAll tests (${minutes} min):`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);

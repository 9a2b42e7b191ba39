// `npm test`: everything: lint, format and type-check side by side while the production build is made; then the
// server's jest tests (on PGlite and on PostgreSQL) and the tooling's; then Playwright against that build, with the
// web apps' jest tests beside it. `--no-e2e`: every jest test, no build and no Playwright.
import fs from 'node:fs';
import { createRequire } from 'node:module';
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

/**
 * One jest run over some projects. `logFile`: its output goes there and is printed when it ends (it runs beside
 * another step). Resolves with its counts.
 */
async function runJest(label, projects, { logFile, maxWorkers, nodeFlags = [] } = {}) {
  const report = path.join(tmp, `jest-${label}.json`);
  fs.rmSync(report, { force: true });
  const args = [
    ...nodeFlags,
    bin('jest', 'bin/jest.js'),
    '--json',
    `--outputFile=${report}`,
    '--selectProjects',
    ...projects,
  ];
  if (maxWorkers) args.push(`--maxWorkers=${maxWorkers}`);
  const options = { env: { ...process.env, FORCE_COLOR: process.env.CI || logFile ? '0' : '1' } };
  const code = logFile ? (await runLogged(nodeBin, args, logFile, options)).code : await run(nodeBin, args, options);
  if (logFile) process.stdout.write(fs.readFileSync(logFile, 'utf8'));
  const result = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : undefined;
  const counts = {
    passed: result?.numPassedTests ?? 0,
    failed: (result?.numFailedTests ?? 0) + (code !== 0 && !result?.numFailedTests ? 1 : 0),
    skipped: (result?.numPendingTests ?? 0) + (result?.numTodoTests ?? 0),
  };
  console.log(`jest (${label}): ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  return counts;
}

/** Playwright against the production build; resolves with its counts. */
async function runPlaywright() {
  const e2eReport = path.join(tmp, 'playwright-report.json');
  fs.rmSync(e2eReport, { force: true });
  const code = await run(nodeBin, [bin('@playwright/test', 'cli.js'), 'test', '--reporter=list,json'], {
    cwd: path.join(repoRoot, 'e2e'),
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport },
  });
  const stats = fs.existsSync(e2eReport) ? JSON.parse(fs.readFileSync(e2eReport, 'utf8')).stats : undefined;
  const counts = {
    passed: (stats?.expected ?? 0) + (stats?.flaky ?? 0),
    failed: (stats?.unexpected ?? 0) + (code !== 0 && !stats?.unexpected ? 1 : 0),
    skipped: stats?.skipped ?? 0,
  };
  console.log(`playwright: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  return counts;
}

// Jest loads every module afresh for each test file, so what V8's optimizing compiler (TurboFan) makes of the
// server's code in one file is thrown away with it, mostly before it pays for itself. Stopping at tier 2 (Maglev on
// Node 22 and later, the baseline compiler on Node 20) took the server's and tooling's tests from 263-268 to
// 244-251 CPU-seconds (two alternating pairs). jest passes the flag on to its workers. The web apps' tests gained
// nothing measurable from it (52-57 against 51-53 CPU-seconds, but 5-6 s longer), so they keep the default, except
// with --no-e2e, where one jest run holds every project and the server's tests are most of it.
// --liftoff-only does the same for PGlite's WebAssembly Postgres, which each batch compiles anew: two batches run
// alone took about 8-10 % less CPU with it (44.5 and 43.6 against 49.5 and 48.8 CPU-seconds; 26.7 and 25.1 against
// 28.3 and 28.4), the same tests passing.
const serverJestFlags = ['--max-opt=2', '--liftoff-only'];
// The server's test files run in a few batches, each loading the app's modules once (server/test-batches.js): 22 %
// less CPU for them than one module registry per file (two alternating pairs).
process.env.KABARI_JEST_BATCHES = '1';

const totals = { passed: 0, failed: 0, skipped: 0 };
const add = (counts) => {
  for (const key of Object.keys(totals)) totals[key] += counts[key];
};
// Every jest project but the server's and the tooling's is a web app's or the shared package's (jsdom).
const apartFromWeb = ['server', 'tooling'];
const webProjects = jestProjectNames().filter((name) => !apartFromWeb.includes(name));

/** The display names of the projects the root jest config lists, so a project added there runs here too. */
function jestProjectNames() {
  const require = createRequire(import.meta.url);
  const { projects } = require('../jest.config.js');
  const names = projects.map((project) => require(project.replace('<rootDir>', repoRoot)).displayName);
  for (const name of apartFromWeb) if (!names.includes(name)) throw new Error(`no jest project named ${name}`);
  return names;
}

if (skipE2e) {
  add(await runJest('all', [...apartFromWeb, ...webProjects], { nodeFlags: serverJestFlags }));
} else {
  // The server's tests first, beside the end of the build.
  add(await runJest('server', apartFromWeb, { nodeFlags: serverJestFlags }));
  // After a failure, the web tests still run (and say what else fails), but not Playwright.
  if (totals.failed > 0) add(await runJest('web', webProjects));
  else {
    const build = await building;
    if (build.code !== 0) {
      process.stdout.write(fs.readFileSync(buildLog, 'utf8'));
      console.error(`✗ build failed (exit ${build.code}, ${build.seconds}s)`);
      process.exit(build.code);
    }
    console.log(`✓ build, beside the checks (${build.seconds}s)`);
    // The web apps' tests (jsdom: no server, no real clock to keep) run in one worker beside Playwright, whose
    // browsers and servers leave about an eighth of the two cores idle (vmstat through a whole run): their CPU
    // (about 150 s) fills that instead of adding a phase of its own.
    const [web, e2e] = await Promise.all([
      runJest('web', webProjects, { logFile: path.join(tmp, 'jest-web.log'), maxWorkers: 1 }),
      runPlaywright(),
    ]);
    add(web);
    add(e2e);
  }
}

// A build still running (jest failed first) is not left behind.
await building;
const minutes = ((Date.now() - started) / 60000).toFixed(1);
console.log(`\nAll tests (${minutes} min):`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed === 0 ? 0 : 1);

// `npm run bench`: builds the app, starts the production server on a free port with a fresh
// data folder, runs the bench modules in scripts/bench/<name>.mjs against it, writes
// bench/results.json, prints a table and a PASS/FAIL line per budget, each figure beside its
// budget. It exits 1 when a measured budget is broken or a measurement could not be made.
//
//   npm run bench                          build, then every module
//   npm run bench -- --skip-build          use the existing dist folders (also KABARI_SKIP_BUILD=1)
//   npm run bench -- --only lighthouse,soak
//   npm run bench -- --runs 5              Lighthouse runs per core route and profile (default 5)
//   npm run bench -- --profiles 3g         Lighthouse network profiles (default: default,3g)
//   npm run bench -- --idle-wait 0         don't wait for a busy machine to quieten before Lighthouse's runs (default 20 s)
//   npm run bench -- --soak-minutes 5      the soak run's length (default 30)
//   npm run bench -- --url http://127.0.0.1:8080   measure a server that is already running
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureBenchTools } from './bench/lib/tools.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = path.join(repoRoot, 'bench');
const reportsDir = path.join(benchDir, 'reports');
const resultsFile = path.join(benchDir, 'results.json');

/** Every bench module, in the order they run. Add new ones here (scripts/bench/<name>.mjs). */
const moduleNames = ['lighthouse', 'payment-step', 'live-events', 'http-throughput', 'soak'];

const log = (/** @type {string} */ message) => process.stderr.write(`[bench] ${message}\n`);

// The bench's modules import its tools (Lighthouse, autocannon): they are installed before any module loads.
ensureBenchTools(log);
const { budgets } = await import('./bench/budgets.mjs');
const { chromeFlags, findChrome } = await import('./bench/lib/browser.mjs');
const { buildApp, startServer } = await import('./bench/lib/server.mjs');

/** @type {Array<() => Promise<void> | void>} */
const cleanups = [];
/** Cleanups registered after an interrupt began (a browser that finished launching meanwhile). */
/** @type {Promise<void>[]} */
const lateCleanups = [];
const interruption = new AbortController();
/** Stops the measurements: on Ctrl-C, or when the server goes away under them. */
const measuring = new AbortController();
/** @param {() => Promise<void> | void} fn */
function onCleanup(fn) {
  if (interruption.signal.aborted) {
    lateCleanups.push(
      Promise.resolve()
        .then(fn)
        .catch(() => {}),
    );
    return () => {};
  }
  cleanups.push(fn);
  return () => {
    const index = cleanups.lastIndexOf(fn);
    if (index >= 0) cleanups.splice(index, 1);
  };
}
async function runCleanups() {
  while (cleanups.length) {
    const fn = /** @type {() => Promise<void> | void} */ (cleanups.pop());
    try {
      await fn();
    } catch (error) {
      log(`cleanup: ${/** @type {Error} */ (error).message}`);
    }
  }
}
/** @type {Promise<void> | null} */
let interrupted = null;
for (const [signal, code] of /** @type {const} */ ([
  ['SIGINT', 130],
  ['SIGTERM', 143],
])) {
  process.on(signal, () => {
    if (interruption.signal.aborted) process.exit(code);
    interruption.abort(new Error(`interrupted by ${signal}`));
    measuring.abort(interruption.signal.reason);
    log(`${signal}: stopping the server and browsers (again to force)…`);
    const force = setTimeout(() => process.exit(code), 25_000);
    force.unref();
    interrupted = (async () => {
      await runCleanups();
      // Let a module notice the interrupt and release what it was launching just then.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await Promise.allSettled(lateCleanups);
      await runCleanups();
    })().finally(() => process.exit(code));
  });
}

const { values: options } = parseArgs({
  options: {
    only: { type: 'string' },
    'skip-build': { type: 'boolean', default: false },
    url: { type: 'string' },
    runs: { type: 'string' },
    'public-runs': { type: 'string' },
    pages: { type: 'string' },
    profiles: { type: 'string' },
    'idle-wait': { type: 'string' },
    'soak-minutes': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

/** @type {Record<string, import('./bench/lib/context.mjs').BenchModule>} */
const modules = {};
for (const name of moduleNames) modules[name] = await import(`./bench/${name}.mjs`);

if (options.help) {
  console.log(
    `Usage: npm run bench -- [--only ${moduleNames.join(',')}] [--skip-build] [--runs N] [--public-runs N] [--pages all|core|public|ROUTE,…] [--profiles default,3g] [--idle-wait SECONDS] [--soak-minutes N] [--url BASE_URL]\n`,
  );
  for (const name of moduleNames) console.log(`  ${name.padEnd(12)} ${modules[name].description}`);
  console.log('\nWrites bench/results.json and bench/reports/; see bench/README.md.');
  process.exit(0);
}

const selected = options.only
  ? options.only
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
  : moduleNames;
const unknown = selected.filter((name) => !moduleNames.includes(name));
if (unknown.length || !selected.length) {
  console.error(`Unknown bench module(s): ${unknown.join(', ') || '(none given)'}. Known: ${moduleNames.join(', ')}`);
  process.exit(2);
}
if (options.runs !== undefined && !(Number(options.runs) >= 1)) {
  console.error(`--runs must be a number ≥ 1, got ${options.runs}`);
  process.exit(2);
}
if (options['public-runs'] !== undefined && !(Number(options['public-runs']) >= 1)) {
  console.error(`--public-runs must be a number ≥ 1, got ${options['public-runs']}`);
  process.exit(2);
}
if (options.pages !== undefined || options.profiles !== undefined) {
  try {
    (await import('./bench/lighthouse.mjs')).plannedRoutes(options);
  } catch (error) {
    console.error(/** @type {Error} */ (error).message);
    process.exit(2);
  }
}
if (options['soak-minutes'] !== undefined && !(Number(options['soak-minutes']) >= 3)) {
  console.error(`--soak-minutes must be a number ≥ 3, got ${options['soak-minutes']}`);
  process.exit(2);
}
if (options['idle-wait'] !== undefined && !(Number(options['idle-wait']) >= 0)) {
  console.error(`--idle-wait must be a number of seconds ≥ 0, got ${options['idle-wait']}`);
  process.exit(2);
}

const startedAt = new Date();
const loadAtStart = os.loadavg().map((n) => Math.round(n * 100) / 100);
/** @type {Record<string, number>} */
const seconds = {};
const since = (/** @type {number} */ t) => Math.round((Date.now() - t) / 100) / 10;
let exitCode = 0;

try {
  let chrome;
  try {
    const found = await findChrome();
    chrome = { ...found, flags: chromeFlags, version: browserVersion(found.path) };
  } catch (error) {
    console.error(/** @type {Error} */ (error).message);
    process.exit(1);
  }
  log(`browser: ${chrome.path} (${chrome.source}) ${chrome.version ?? ''}`);
  await fs.mkdir(reportsDir, { recursive: true });

  /** @type {import('./bench/lib/context.mjs').BenchContext['server']} */
  let server = null;
  let baseUrl;
  if (options.url) {
    baseUrl = options.url.replace(/\/+$/, '');
    log(`measuring the running server at ${baseUrl} (no build, no start)`);
  } else {
    const skipBuild = options['skip-build'] || process.env.KABARI_SKIP_BUILD === '1';
    if (skipBuild) {
      log('build skipped');
    } else {
      const buildLog = path.join(reportsDir, 'build.log');
      log(`building (node scripts/build.mjs, output in ${path.relative(repoRoot, buildLog)})…`);
      seconds.build = await buildApp({ repoRoot, logFile: buildLog, onCleanup });
      log(`built in ${seconds.build.toFixed(1)}s`);
    }
    const t = Date.now();
    const running = await startServer({
      repoRoot,
      logFile: path.join(reportsDir, 'server.log'),
      onCleanup,
      log,
      onUnexpectedExit: (message) => {
        log(message);
        measuring.abort(new Error(message.split('\n')[0]));
      },
    });
    seconds.serverStart = since(t);
    server = { url: running.url, port: running.port, dataDir: running.dataDir };
    baseUrl = running.url;
  }

  /** @type {import('./bench/lib/context.mjs').BenchContext} */
  const context = {
    repoRoot,
    baseUrl,
    server,
    chrome: { path: chrome.path, source: chrome.source, flags: chrome.flags },
    reportsDir,
    signal: measuring.signal,
    options: /** @type {Record<string, string | boolean>} */ (options),
    onCleanup,
    log,
  };

  /** @type {Record<string, any>} */
  const measured = {};
  /** @type {Record<string, string>} */
  const errors = {};
  for (const name of selected) {
    interruption.signal.throwIfAborted();
    if (measuring.signal.aborted) {
      errors[name] = `not run: ${measuring.signal.reason?.message ?? measuring.signal.reason}`;
      exitCode = 1;
      continue;
    }
    const t = Date.now();
    log(`${name}: ${modules[name].description}`);
    try {
      measured[name] = await modules[name].run(context);
    } catch (error) {
      if (interruption.signal.aborted) throw error;
      errors[name] = /** @type {Error} */ (error).stack ?? String(error);
      log(`${name} FAILED: ${/** @type {Error} */ (error).message}`);
      exitCode = 1;
    }
    seconds[name] = since(t);
  }

  const verdicts = budgets.map((budget) => {
    const base = {
      id: budget.id,
      route: budget.route,
      label: budget.label,
      max: budget.max ?? null,
      min: budget.min ?? null,
      unit: budget.unit ?? null,
    };
    if (!selected.includes(budget.suite))
      return { ...base, actual: null, status: 'SKIPPED', note: `--only left out ${budget.suite}` };
    // A module may leave some of its routes out on request (lighthouse --pages).
    const leftOut = modules[budget.suite].leftOut?.(budget, options) ?? null;
    if (leftOut) return { ...base, actual: null, status: 'SKIPPED', note: leftOut };
    if (errors[budget.suite])
      return { ...base, actual: null, status: 'FAIL', note: `${budget.suite} failed to measure` };
    const actual = modules[budget.suite].measure?.(measured[budget.suite], budget) ?? null;
    if (actual === null) return { ...base, actual, status: 'FAIL', note: 'not measured' };
    const pass =
      (budget.max === undefined || actual <= budget.max) && (budget.min === undefined || actual >= budget.min);
    // Where a figure depends on the machine: the CPU it ran on and how loaded the machine was.
    const on = modules[budget.suite].circumstances?.(measured[budget.suite], budget) ?? null;
    return { ...base, actual, status: pass ? 'PASS' : 'FAIL', note: on === null ? null : `on ${on}` };
  });

  interruption.signal.throwIfAborted();
  seconds.total = since(startedAt.getTime());
  const results = {
    when: startedAt.toISOString(),
    node: process.version,
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model ?? null,
      memoryGB: Math.round(os.totalmem() / 1e8) / 10,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      loadAverageAtStart: loadAtStart,
    },
    commit: git(['rev-parse', 'HEAD']),
    dirty: git(['status', '--porcelain']) !== '',
    browser: { path: chrome.path, source: chrome.source, version: chrome.version, flags: chrome.flags },
    baseUrl,
    modules: selected,
    ...Object.fromEntries(
      selected.filter((name) => name in measured).map((name) => [modules[name].key ?? name, measured[name]]),
    ),
    budgets,
    verdicts,
    errors,
    seconds,
  };
  await fs.writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`);

  const out = [
    '',
    `Kabari bench · ${results.when} · commit ${results.commit?.slice(0, 10) ?? '?'}${results.dirty ? ' (uncommitted changes)' : ''} · node ${results.node} · ${results.machine.cpus}× ${results.machine.model} · ${chrome.version ?? 'chromium'}`,
  ];
  for (const name of selected) {
    out.push('');
    out.push(
      name in measured
        ? modules[name].format(measured[name])
        : `${name}: FAILED to measure\n  ${errors[name].split('\n')[0]}`,
    );
  }
  out.push('', 'Budgets');
  for (const v of verdicts) {
    const limit = v.max !== null ? `≤ ${v.max}${v.unit ? ` ${v.unit}` : ''}` : `≥ ${v.min}`;
    const actual = v.actual === null ? '' : `: ${v.actual}${v.unit ? ` ${v.unit}` : ''}`;
    out.push(
      `  ${v.status.padEnd(7)} ${v.route.padEnd(12)} ${v.label} ${limit}${actual}${v.note ? ` (${v.note})` : ''}`,
    );
  }
  const failed = verdicts.filter((v) => v.status === 'FAIL');
  out.push('');
  out.push(
    failed.length
      ? `FAIL: ${failed.length} of ${verdicts.length} budget(s) not met: ${failed.map((v) => v.id).join(', ')}`
      : `PASS: every measured budget is met (${verdicts.filter((v) => v.status === 'PASS').length} of ${verdicts.length})`,
  );
  out.push(
    `Wrote ${path.relative(repoRoot, resultsFile)} (reports in ${path.relative(repoRoot, reportsDir)}/) in ${seconds.total}s`,
  );
  console.log(out.join('\n'));
  if (failed.length) exitCode = 1;
} catch (error) {
  if (!interruption.signal.aborted) {
    console.error(`bench failed: ${/** @type {Error} */ (error).message}`);
    exitCode = 1;
  }
} finally {
  // After Ctrl-C the signal handler owns the shutdown and exits when it is done.
  if (interrupted) await interrupted;
  await runCleanups();
}
process.exit(exitCode);

/** @param {string[]} args */
function git(args) {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** @param {string} chromePath */
function browserVersion(chromePath) {
  try {
    const out = execFileSync(chromePath, ['--version'], {
      encoding: 'utf8',
      timeout: 15_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out.trim().split('\n').pop() ?? null;
  } catch {
    return null;
  }
}

// The pages, measured by Lighthouse CI (`lhci collect`, `lhci assert`, `lhci upload`): Lighthouse's mobile form
// factor, simulated throttling with its 4× CPU slowdown, performance only, each run in a fresh Chromium. LHCI runs
// the pages, takes the median of each figure and checks it against the budgets (budgets.mjs, given to it as
// assertions); this module only says which pages, how often and under which network, and reads LHCI's verdicts.
// Two network profiles: Lighthouse's default (slow 4G) and its regular 3G (300 ms round trip, 700 Kbps), a relative
// opening an SMS link on a cheap phone over a weak connection. Each page's representative run is kept as an HTML
// and a JSON report in bench/reports/lighthouse-<profile>/.
import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runLogged } from '../lib/run.mjs';
import { budgets } from './budgets.mjs';
import { fixed, KB, table, toKB } from './lib/format.mjs';
import { coreRoutes, profileNames, publicRoutes } from './lib/pages.mjs';
import { waitForIdle } from './lib/machine.mjs';
import { linkRoutes, recipientLinkUrls } from './lib/recipient-links.mjs';

export const name = 'lighthouse';
export const description =
  'Lighthouse CI, mobile: performance score, LCP, TBT and JavaScript transferred on /, /enter-link (with and ' +
  'without a voice note), /location-failed and /share under the default profile and regular 3G (median of 5 ' +
  'runs each), and the score of every public page in English and Indonesian under the default profile (1 run ' +
  'each; --public-runs N for medians; --pages core|public|all; --profiles default,3g)';

const require = createRequire(import.meta.url);
const lhciCli = require.resolve('@lhci/cli/src/cli.js');

/** The network profiles (lib/pages.mjs), as Lighthouse settings (empty: its default, slow 4G). */
const profiles = {
  default: async () => ({}),
  '3g': async () => {
    // Lighthouse's own numbers for regular 3G, from the Lighthouse that LHCI runs.
    const constants = createRequire(lhciCli).resolve('lighthouse/core/config/constants.js');
    const { throttling } = await import(pathToFileURL(constants).href);
    return { throttling: throttling.mobileRegular3G };
  },
};
/** Where a route's figures under a profile are kept in results.json. */
export const resultKey = (/** @type {string} */ route, /** @type {string} */ profile) =>
  profile === 'default' ? route : `${route} @${profile}`;
const routes = [...coreRoutes, ...publicRoutes];
/**
 * The recipient's next pages take the link's token too; the bench's token is unknown to the server, and each page
 * shows what it shows for such a link. The consent page is measured on real links (lib/recipient-links.mjs).
 * @type {Record<string, string>}
 */
const routeUrls = {
  '/location-failed': '/location-failed?token=bench0000000000000000000000000000&reason=denied',
  '/share': '/share?token=bench0000000000000000000000000000',
};
// A median of five: one run can be a second off on a shared machine.
const defaultRuns = 5;
// 23 pages × 3 runs would hold the machine for half an hour; one run each still shows a page far off its budget.
const defaultPublicRuns = 1;
/** Longest wait, before each set of runs, for other work on the machine to quieten down. */
const defaultIdleWaitSeconds = 20;

/**
 * What each budget metric is to LHCI: the assertion, its kind, and the factor from the budget's unit to
 * Lighthouse's.
 * @type {Record<string, { assertion: string, kind: 'minScore' | 'maxNumericValue', factor: number }>}
 */
const lhciMetrics = {
  score: { assertion: 'categories:performance', kind: 'minScore', factor: 1 },
  lcpMs: { assertion: 'largest-contentful-paint', kind: 'maxNumericValue', factor: 1 },
  tbtMs: { assertion: 'total-blocking-time', kind: 'maxNumericValue', factor: 1 },
  // The scripts' bytes as transferred (the server's brotli), from Lighthouse's resource summary.
  scriptKB: { assertion: 'resource-summary:script:size', kind: 'maxNumericValue', factor: KB },
};

/**
 * The routes --pages selects (all, core, public, or routes named with commas), with their run counts and profiles
 * (the public pages under the default profile only).
 * @param {Record<string, string | boolean | undefined>} options
 * @returns {Array<{ route: string, runs: number, profile: string }>}
 */
export function plannedRoutes(options) {
  const runs = Math.max(1, Number(options.runs ?? defaultRuns));
  const publicRuns = Math.max(1, Number(options['public-runs'] ?? defaultPublicRuns));
  const pages = String(options.pages ?? 'all');
  const chosen = String(options.profiles ?? profileNames.join(',')).split(',');
  for (const profile of chosen)
    if (!profileNames.includes(profile)) throw new Error(`--profiles takes ${profileNames.join(', ')}, got ${profile}`);
  const named = pages.startsWith('/') ? pages.split(',') : null;
  if (named) {
    for (const route of named) if (!routes.includes(route)) throw new Error(`--pages: no route ${route}`);
  } else if (!['all', 'core', 'public'].includes(pages)) {
    throw new Error(`--pages must be all, core, public or a list of routes, got ${pages}`);
  }
  const wanted = (/** @type {string} */ route, /** @type {'core' | 'public'} */ set) =>
    named ? named.includes(route) : pages === 'all' || pages === set;
  return [
    ...chosen.flatMap((profile) =>
      coreRoutes.filter((route) => wanted(route, 'core')).map((route) => ({ route, runs, profile })),
    ),
    ...(chosen.includes('default')
      ? publicRoutes
          .filter((route) => wanted(route, 'public'))
          .map((route) => ({ route, runs: publicRuns, profile: 'default' }))
      : []),
  ];
}

/** @param {string} text */
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Runs one LHCI command in `dir` (where it keeps its .lighthouseci folder), its output in `dir/lhci-<step>.log`.
 * Answers its exit code and that log's path.
 * @param {string} step names the log
 * @param {string[]} args
 * @param {string} dir
 * @param {AbortSignal} signal
 */
async function lhci(step, args, dir, signal) {
  const logFile = path.join(dir, `lhci-${step}.log`);
  const { code } = await runLogged(process.execPath, [lhciCli, ...args], logFile, { cwd: dir, signal });
  return { code, logFile };
}

/** @param {{ code: number, logFile: string }} result @param {string} repoRoot */
function failIfNonZero({ code, logFile }, repoRoot) {
  if (code !== 0) throw new Error(`Lighthouse CI failed (exit ${code}); see ${path.relative(repoRoot, logFile)}`);
}

/** @param {import('./lib/context.mjs').BenchContext} context */
export async function run(context) {
  const plan = plannedRoutes(context.options);
  const idleWaitSeconds = Math.max(0, Number(context.options['idle-wait'] ?? defaultIdleWaitSeconds));
  const links = plan.some(({ route }) => route in linkRoutes) ? await recipientLinkUrls(context) : {};
  const urlOf = (/** @type {string} */ route) => context.baseUrl + (links[route] ?? routeUrls[route] ?? route);

  // A few unmeasured requests first, so the first run does not pay for a cold server.
  for (const { route } of plan) {
    for (let i = 0; i < 3; i += 1)
      await fetch(urlOf(route))
        .then((r) => r.arrayBuffer())
        .catch(() => {});
  }

  /** @type {Record<string, any>} */
  const results = {};
  for (const profile of [...new Set(plan.map((planned) => planned.profile))]) {
    const dir = path.join(context.reportsDir, `lighthouse-${profile}`);
    await fsp.rm(dir, { recursive: true, force: true });
    await fsp.mkdir(dir, { recursive: true });
    const planned = plan.filter((entry) => entry.profile === profile);
    const settings = {
      onlyCategories: ['performance'],
      // LHCI adds its own --headless=new.
      chromeFlags: context.chrome.flags.filter((flag) => flag !== '--headless').join(' '),
      ...(await profiles[/** @type {keyof typeof profiles} */ (profile)]()),
    };

    // One collect per run count (the core pages take --runs, the others --public-runs), into one set of results.
    const runCounts = [...new Set(planned.map((entry) => entry.runs))];
    for (const [index, runs] of runCounts.entries()) {
      const config = path.join(dir, `collect-${runs}.json`);
      const urls = planned.filter((entry) => entry.runs === runs).map((entry) => urlOf(entry.route));
      const collect = { url: urls, numberOfRuns: runs, additive: index > 0, chromePath: context.chrome.path, settings };
      await fsp.writeFile(config, JSON.stringify({ ci: { collect } }, null, 2));
      // On a shared machine, give other work a little time to finish (--idle-wait seconds, 0 = don't).
      const { busy, waitedMs } = await waitForIdle({ maxMs: idleWaitSeconds * 1000, signal: context.signal });
      if (waitedMs > 1500 || busy > 0.25)
        context.log(
          `lighthouse: waited ${Math.round(waitedMs / 1000)}s for the CPUs to quieten (${Math.round(busy * 100)}% busy)`,
        );
      context.log(`lighthouse ${profile}: ${urls.length} page(s), ${runs} run(s) each…`);
      failIfNonZero(
        await lhci(`collect-${runs}`, ['collect', `--config=${config}`], dir, context.signal),
        context.repoRoot,
      );
    }

    // Each page's budgets under this profile, as LHCI assertions on the median of its runs.
    const assertMatrix = planned.map(({ route }) => ({
      matchingUrlPattern: `^${escapeRegExp(urlOf(route))}$`,
      aggregationMethod: 'median',
      assertions: Object.fromEntries(
        budgetsOf(route, profile).map((budget) => {
          const metric = lhciMetrics[budget.metric];
          const limit = /** @type {number} */ (metric.kind === 'minScore' ? budget.min : budget.max);
          return [metric.assertion, ['error', { [metric.kind]: limit * metric.factor }]];
        }),
      ),
    }));
    const assertConfig = path.join(dir, 'assert.json');
    await fsp.writeFile(
      assertConfig,
      JSON.stringify({ ci: { assert: { includePassedAssertions: true, assertMatrix } } }, null, 2),
    );
    // It exits 1 when a budget is broken: its verdicts are read from the file it writes either way.
    await lhci('assert', ['assert', `--config=${assertConfig}`], dir, context.signal);
    /** @type {Array<{ url: string, auditId: string, auditProperty?: string, actual: number, values: number[], passed: boolean }>} */
    const verdicts = JSON.parse(await fsp.readFile(path.join(dir, '.lighthouseci', 'assertion-results.json'), 'utf8'));

    const upload = await lhci('upload', ['upload', '--target=filesystem', `--outputDir=${dir}`], dir, context.signal);
    failIfNonZero(upload, context.repoRoot);
    /** @type {Array<{ url: string, isRepresentativeRun: boolean, htmlPath: string }>} */
    const manifest = JSON.parse(await fsp.readFile(path.join(dir, 'manifest.json'), 'utf8'));

    for (const { route, runs } of planned) {
      const url = urlOf(route);
      /** @type {Record<string, number | null>} */
      const median = {};
      /** @type {Record<string, number[]>} */
      const values = {};
      for (const [metric, { assertion, factor }] of Object.entries(lhciMetrics)) {
        const verdict = verdicts.find(
          (v) => v.url === url && [v.auditId, ...(v.auditProperty?.split('.') ?? [])].join(':') === assertion,
        );
        if (!verdict) continue;
        median[metric] = verdict.actual / factor;
        values[metric] = verdict.values.map((value) => value / factor);
      }
      const report = manifest.find((entry) => entry.url === url && entry.isRepresentativeRun)?.htmlPath;
      results[resultKey(route, profile)] = {
        url,
        profile,
        runs,
        median,
        values,
        report: report ? path.relative(context.repoRoot, report) : null,
      };
    }
  }
  return results;
}

/**
 * The Lighthouse budgets of a route under a profile.
 * @param {string} route
 * @param {string} profile
 */
function budgetsOf(route, profile) {
  return budgets.filter(
    (budget) =>
      budget.suite === name &&
      budget.route === route &&
      (budget.profile ?? 'default') === profile &&
      budget.metric in lhciMetrics,
  );
}

/** @param {Record<string, any>} results */
export function format(results) {
  const show = (/** @type {number | null | undefined} */ value, /** @type {number} */ digits) =>
    typeof value === 'number' ? value.toFixed(digits) : '–';
  const rows = Object.entries(results).map(([route, r]) => [
    route,
    show(r.median.score, 2),
    show(r.median.lcpMs, 0),
    show(r.median.tbtMs, 0),
    show(r.median.scriptKB, 1),
    (r.values.score ?? []).map((/** @type {number} */ score) => show(score, 2)).join(' '),
    r.report ?? '–',
  ]);
  const counts = [...new Set(Object.values(results).map((r) => r.runs))].sort((a, b) => b - a);
  return [
    `Lighthouse CI, mobile (simulated throttling, 4× CPU slowdown), performance only, median of ${counts.join(' or ')} run(s) per page; "@3g" is regular 3G (300 ms, 700 Kbps); JS KB: scripts as transferred`,
    table(['route', 'score', 'LCP ms', 'TBT ms', 'JS KB', 'each run: score', 'representative run'], rows),
  ].join('\n');
}

/**
 * @param {Record<string, any>} results
 * @param {import('./budgets.mjs').Budget} budget
 */
export function measure(results, budget) {
  const profile = budget.profile ?? 'default';
  if (budget.metric === 'scriptBytesOverPlainLink') {
    // What a voice note adds to the consent page's scripts: the two pages' medians, to the byte.
    const withNote = results[resultKey('/enter-link+voice-note', profile)]?.median?.scriptKB;
    const plain = results[resultKey('/enter-link', profile)]?.median?.scriptKB;
    return typeof withNote === 'number' && typeof plain === 'number' ? Math.round((withNote - plain) * KB) : null;
  }
  const value = results[resultKey(budget.route, profile)]?.median?.[budget.metric];
  if (typeof value !== 'number') return null;
  return budget.metric === 'scriptKB' ? toKB(value * KB) : fixed(value, budget.metric === 'score' ? 2 : 0);
}

/**
 * Why a budget's route was not measured on purpose, or null.
 * @param {import('./budgets.mjs').Budget} budget
 * @param {Record<string, string | boolean | undefined>} options
 */
export function leftOut(budget, options) {
  const profile = budget.profile ?? 'default';
  const needed = budget.metric === 'scriptBytesOverPlainLink' ? ['/enter-link', budget.route] : [budget.route];
  const planned = plannedRoutes(options);
  return needed.every((route) => planned.some((entry) => entry.route === route && entry.profile === profile))
    ? null
    : `--pages/--profiles left out ${needed.map((route) => resultKey(route, profile)).join(' or ')}`;
}

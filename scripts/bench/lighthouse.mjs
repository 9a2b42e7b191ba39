// Lighthouse (programmatic API), mobile form factor, simulated throttling, performance category
// only, a few runs per route one after another, each in a freshly launched Chromium with a fresh
// profile. Two network profiles: Lighthouse's default (its slow-4G numbers) and its regular-3G
// numbers (300 ms round trip, 700 Kbps), both with its 4× CPU slowdown: a relative opening an SMS
// link on a cheap phone over a weak connection. Reports the median of each metric and every run's
// values, with the CPU benchmark index Lighthouse measured; each run's HTML report goes to bench/reports/.
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as lighthouseConstants from 'lighthouse/core/config/constants.js';
import { routeUrls } from './bundle.mjs';
import { linkRoutes, recipientLinkUrls } from './lib/recipient-links.mjs';
import { fixed, median, table } from './lib/format.mjs';
import { waitForIdle } from './lib/machine.mjs';

export const name = 'lighthouse';
export const description =
  'Lighthouse mobile performance (score, LCP, TBT, CLS): /, /enter-link (with and without a voice note), ' +
  '/location-failed and /share under the ' +
  'default profile and regular 3G (median of 5 runs each), and every public page in English and Indonesian under ' +
  'the default profile (1 run each; --public-runs N for medians; --pages core|public|all; --profiles default,3g)';

/** The network profiles: Lighthouse's own settings for each (null: its default, slow 4G). */
export const profiles = {
  default: null,
  '3g': { throttling: lighthouseConstants.throttling.mobileRegular3G },
};
/** @param {string} profile */
export const profileLabel = (profile) => (profile === '3g' ? 'regular 3G' : 'default profile');
/** Where a route's figures under a profile are kept in results.json. */
export const resultKey = (/** @type {string} */ route, /** @type {string} */ profile) =>
  profile === 'default' ? route : `${route} @${profile}`;

/** The home page and the recipient's pages, each with its own budgets: measured with --runs under every profile. */
export const coreRoutes = ['/', ...Object.keys(linkRoutes), '/location-failed', '/share'];
/** The other public pages besides the home page, each also under /id. */
export const publicPages = [
  '/about-us',
  '/faqs',
  '/tracking-phone-number',
  '/privacy-policy',
  '/terms-of-use',
  '/cookies-policy',
  '/intellectual-property',
  '/unsubscribe-and-refund',
  '/contact-us',
  '/200',
  '/404',
];
/** Every public page but the English home (a core route), in both languages: measured with --public-runs. */
export const publicRoutes = [...publicPages, '/id/', ...publicPages.map((page) => `/id${page}`)];
export const routes = [...coreRoutes, ...publicRoutes];
// A median of five: one run can be a second off on a shared machine.
const defaultRuns = 5;
// 23 pages × 3 runs would hold the machine for half an hour; one run each still shows a page far off its budget.
const defaultPublicRuns = 1;

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
  const chosen = String(options.profiles ?? Object.keys(profiles).join(',')).split(',');
  for (const profile of chosen)
    if (!(profile in profiles)) throw new Error(`--profiles takes ${Object.keys(profiles).join(', ')}, got ${profile}`);
  if (pages.startsWith('/')) {
    // Named routes: a core route under every chosen profile, a public page under the default profile.
    const named = pages.split(',');
    for (const route of named) if (!routes.includes(route)) throw new Error(`--pages: no route ${route}`);
    return [
      ...chosen.flatMap((profile) =>
        coreRoutes.filter((route) => named.includes(route)).map((route) => ({ route, runs, profile })),
      ),
      ...(chosen.includes('default')
        ? publicRoutes
            .filter((route) => named.includes(route))
            .map((route) => ({ route, runs: publicRuns, profile: 'default' }))
        : []),
    ];
  }
  if (!['all', 'core', 'public'].includes(pages))
    throw new Error(`--pages must be all, core, public or a list of routes, got ${pages}`);
  return [
    ...(pages === 'public' ? [] : chosen.flatMap((profile) => coreRoutes.map((route) => ({ route, runs, profile })))),
    ...(pages === 'core' || !chosen.includes('default')
      ? []
      : publicRoutes.map((route) => ({ route, runs: publicRuns, profile: 'default' }))),
  ];
}
/** Longest wait, before each run, for other work on the machine to quieten down. */
const defaultIdleWaitSeconds = 20;

/** @typedef {{ score: number | null, lcpMs: number | null, tbtMs: number | null, cls: number | null, fcpMs: number | null, speedIndexMs: number | null }} Metrics */

/** @param {import('./lib/context.mjs').BenchContext} context */
export async function run(context) {
  const plan = plannedRoutes(context.options);
  const idleWaitSeconds = Math.max(0, Number(context.options['idle-wait'] ?? defaultIdleWaitSeconds));
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  await fsp.mkdir(context.reportsDir, { recursive: true });
  const links = plan.some(({ route }) => route in linkRoutes) ? await recipientLinkUrls(context) : {};
  const urlOf = (/** @type {string} */ route) => links[route] ?? routeUrls[route] ?? route;

  // A few unmeasured requests first, so the first run does not pay for a cold server.
  for (const { route } of plan) {
    for (let i = 0; i < 3; i += 1)
      await fetch(context.baseUrl + urlOf(route))
        .then((r) => r.arrayBuffer())
        .catch(() => {});
  }

  /** @type {Record<string, any>} */
  const results = {};
  /** @type {string | null} */
  let lighthouseVersion = null;
  for (const { route, runs, profile } of plan) {
    const key = resultKey(route, profile);
    /** @type {Array<Metrics & { run: number, seconds: number, benchmarkIndex: number | null, busyBefore: number, loadBefore: number, mainThreadMs: number | null, bootup: Array<{ url: string, totalMs: number, scriptingMs: number }>, lcpElement: string | null, lcpSelector: string | null, warnings: string[], error: string | null, report: string | null }>} */
    const runResults = [];
    for (let i = 1; i <= runs; i += 1) {
      context.signal.throwIfAborted();
      const started = Date.now();
      // Sampled while nothing of ours runs: the share of the CPUs other work is taking. On a
      // shared machine, give that work a little time to finish (--idle-wait seconds, 0 = don't).
      const { busy: busyBefore, waitedMs } = await waitForIdle({
        maxMs: idleWaitSeconds * 1000,
        signal: context.signal,
      });
      if (waitedMs > 1500)
        context.log(
          `lighthouse: waited ${Math.round(waitedMs / 1000)}s for the CPUs to quieten (now ${Math.round(busyBefore * 100)}% busy)`,
        );
      const loadBefore = Math.round(os.loadavg()[0] * 100) / 100;
      const userDataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'kabari-bench-chrome-'));
      /** @type {import('chrome-launcher').LaunchedChrome | null} */
      let chrome = null;
      let unregister = () => {};
      try {
        chrome = await chromeLauncher.launch({
          chromePath: context.chrome.path,
          chromeFlags: context.chrome.flags,
          userDataDir,
          logLevel: 'silent',
          // bench.mjs handles Ctrl-C (stops the server too); chrome-launcher's own handler would exit first.
          handleSIGINT: false,
        });
        const launched = chrome;
        unregister = context.onCleanup(async () => {
          await kill(launched);
          await fsp.rm(userDataDir, { recursive: true, force: true, maxRetries: 3 });
        });
        const result = await lighthouse(context.baseUrl + urlOf(route), {
          port: chrome.port,
          output: 'html',
          logLevel: 'error',
          onlyCategories: ['performance'],
          ...profiles[/** @type {keyof typeof profiles} */ (profile)],
        });
        if (!result) throw new Error('Lighthouse returned no result');
        const { lhr } = result;
        lighthouseVersion = lhr.lighthouseVersion;
        const reportFile = path.join(
          context.reportsDir,
          `lighthouse${route === '/' ? '-home' : route.replace(/\/$/, '').replaceAll('/', '-')}-${profile}-${i}.html`,
        );
        await fsp.writeFile(reportFile, /** @type {string} */ (result.report));
        const diagnostics = diagnosticsOf(lhr, context.baseUrl);
        // The largest paint being the host's remote fallback means a remote failed to load:
        // such a run measured the wrong page, so it counts as an error, not as figures.
        const showedFallback = /remote-unavailable/.test(diagnostics.lcpSelector ?? '');
        const metrics = showedFallback ? nullMetrics() : metricsOf(lhr);
        runResults.push({
          run: i,
          ...metrics,
          seconds: Math.round((Date.now() - started) / 100) / 10,
          benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
          busyBefore,
          loadBefore,
          ...diagnostics,
          warnings: lhr.runWarnings ?? [],
          error: lhr.runtimeError
            ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`
            : showedFallback
              ? 'the page showed the remote fallback (a remote failed to load): run not counted'
              : null,
          report: path.relative(context.repoRoot, reportFile),
        });
        context.log(
          `lighthouse ${key} run ${i}/${runs}: score ${metrics.score ?? '–'}, LCP ${metrics.lcpMs ?? '–'} ms, ` +
            `TBT ${metrics.tbtMs ?? '–'} ms, CLS ${metrics.cls ?? '–'} (${((Date.now() - started) / 1000).toFixed(1)}s)`,
        );
      } catch (error) {
        if (context.signal.aborted) throw error;
        const message = /** @type {Error} */ (error).message;
        runResults.push({
          run: i,
          ...nullMetrics(),
          seconds: Math.round((Date.now() - started) / 100) / 10,
          benchmarkIndex: null,
          busyBefore,
          loadBefore,
          mainThreadMs: null,
          bootup: [],
          lcpElement: null,
          lcpSelector: null,
          warnings: [],
          error: message,
          report: null,
        });
        context.log(`lighthouse ${key} run ${i}/${runs}: ERROR ${message}`);
      } finally {
        unregister();
        if (chrome) await kill(chrome);
        await fsp.rm(userDataDir, { recursive: true, force: true, maxRetries: 3 });
      }
    }
    /** @type {Record<string, number | null>} */
    const med = {};
    for (const metric of /** @type {(keyof Metrics)[]} */ ([
      'score',
      'lcpMs',
      'tbtMs',
      'cls',
      'fcpMs',
      'speedIndexMs',
    ])) {
      med[metric] = median(runResults.map((r) => r[metric]));
    }
    results[key] = {
      url: context.baseUrl + urlOf(route),
      profile,
      runs: runResults,
      median: med,
      lighthouseVersion,
    };
  }
  return results;
}

/**
 * SIGKILLs the browser's process group and waits (up to 5 s) until it has gone, so its
 * profile folder can be removed.
 * @param {import('chrome-launcher').LaunchedChrome} chrome
 */
async function kill(chrome) {
  const child = chrome.process;
  const closed =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => {
          child.once('close', resolve);
          setTimeout(resolve, 5000).unref();
        });
  chrome.kill();
  await closed;
}

/**
 * Where the main-thread time went (to see what to split), and what the largest paint was.
 * @param {any} lhr
 * @param {string} baseUrl
 */
function diagnosticsOf(lhr, baseUrl) {
  const short = (/** @type {string} */ url) => (url.startsWith(baseUrl) ? url.slice(baseUrl.length) || '/' : url);
  /** @type {any[]} */
  const bootupItems = lhr.audits?.['bootup-time']?.details?.items ?? [];
  /** @type {any} */
  const lcpDetails = lhr.audits?.['largest-contentful-paint-element']?.details;
  const lcpNode = lcpDetails?.items?.[0]?.items?.[0]?.node ?? lcpDetails?.items?.[0]?.node ?? null;
  return {
    mainThreadMs: fixed(lhr.audits?.['mainthread-work-breakdown']?.numericValue ?? null, 0),
    bootup: bootupItems.slice(0, 6).map((item) => ({
      url: short(String(item.url)),
      totalMs: Math.round(item.total),
      scriptingMs: Math.round(item.scripting),
    })),
    lcpSelector: lcpNode?.selector ?? null,
    lcpElement: lcpNode
      ? `${lcpNode.snippet ?? ''}${lcpNode.nodeLabel ? ` "${String(lcpNode.nodeLabel).slice(0, 60)}"` : ''}`
      : null,
  };
}

/** @returns {Metrics} */
function nullMetrics() {
  return { score: null, lcpMs: null, tbtMs: null, cls: null, fcpMs: null, speedIndexMs: null };
}

/** @param {any} lhr @returns {Metrics} */
function metricsOf(lhr) {
  const audit = (/** @type {string} */ id) => lhr.audits?.[id]?.numericValue ?? null;
  return {
    score: lhr.categories?.performance?.score ?? null,
    lcpMs: fixed(audit('largest-contentful-paint'), 0),
    tbtMs: fixed(audit('total-blocking-time'), 0),
    cls: fixed(audit('cumulative-layout-shift'), 3),
    fcpMs: fixed(audit('first-contentful-paint'), 0),
    speedIndexMs: fixed(audit('speed-index'), 0),
  };
}

/** @param {Record<string, any>} results */
export function format(results) {
  const rows = Object.entries(results).map(([route, r]) => [
    route,
    show(r.median.score, 2),
    show(r.median.lcpMs, 0),
    show(r.median.tbtMs, 0),
    show(r.median.cls, 3),
    show(r.median.fcpMs, 0),
    r.runs
      .map((/** @type {any} */ x) =>
        x.error && x.score === null
          ? 'error'
          : `${show(x.score, 2)}/${show(x.lcpMs, 0)}/${show(x.tbtMs, 0)}/${show(x.cls, 3)}`,
      )
      .join('  '),
  ]);
  const counts = [...new Set(Object.values(results).map((r) => r.runs.length))].sort((a, b) => b - a);
  const lines = [
    `Lighthouse mobile (simulated throttling, 4× CPU slowdown), performance only, median of ${counts.join(' or ')} run(s) per page; "@3g" is regular 3G (300 ms, 700 Kbps)`,
    table(['route', 'score', 'LCP ms', 'TBT ms', 'CLS', 'FCP ms', 'each run: score/LCP/TBT/CLS'], rows),
  ];
  const benchmarkIndex = median(
    Object.values(results).flatMap((r) => r.runs.map((/** @type {any} */ x) => x.benchmarkIndex)),
  );
  if (benchmarkIndex !== null)
    lines.push(`  Lighthouse CPU benchmarkIndex (median of runs): ${Math.round(benchmarkIndex)}`);
  for (const [route, r] of Object.entries(results)) {
    // The run whose score is the median (or the first with one) stands for the route.
    const scored = r.runs
      .filter((/** @type {any} */ x) => x.score !== null)
      .sort((/** @type {any} */ a, /** @type {any} */ b) => a.score - b.score);
    const typical = scored[Math.floor((scored.length - 1) / 2)];
    if (!typical) continue;
    lines.push(
      `  ${route} (run ${typical.run}): main thread ${typical.mainThreadMs} ms; most CPU: ` +
        typical.bootup
          .slice(0, 4)
          .map((/** @type {any} */ b) => `${b.url} ${b.totalMs} ms`)
          .join(', ') +
        (typical.lcpElement ? `; LCP element ${typical.lcpElement}` : ''),
    );
  }
  const busiest = Math.max(
    ...Object.values(results).flatMap((r) => r.runs.map((/** @type {any} */ x) => x.busyBefore ?? 0)),
  );
  if (busiest > 0.25) {
    lines.push(
      `  WARNING: other work kept ${Math.round(busiest * 100)}% of the CPUs busy just before a run: ` +
        'TBT, LCP and the score come out worse than on an idle machine; rerun when it is idle.',
    );
  }
  for (const [route, r] of Object.entries(results)) {
    for (const x of r.runs) {
      if (x.error) lines.push(`  ${route} run ${x.run}: ${x.error}`);
      for (const warning of x.warnings)
        lines.push(`  ${route} run ${x.run} warning: ${String(warning).split('\n')[0]}`);
    }
  }
  return lines.join('\n');
}

/** @param {number | null} value @param {number} digits */
function show(value, digits) {
  return value === null || value === undefined ? '–' : value.toFixed(digits);
}

/**
 * @param {Record<string, any>} results
 * @param {import('./budgets.mjs').Budget} budget
 */
export function measure(results, budget) {
  return results[resultKey(budget.route, budget.profile ?? 'default')]?.median?.[budget.metric] ?? null;
}

/**
 * Why a budget's route was not measured on purpose, or null.
 * @param {import('./budgets.mjs').Budget} budget
 * @param {Record<string, string | boolean | undefined>} options
 */
export function leftOut(budget, options) {
  const profile = budget.profile ?? 'default';
  return plannedRoutes(options).some((planned) => planned.route === budget.route && planned.profile === profile)
    ? null
    : `--pages/--profiles left out ${resultKey(budget.route, profile)}`;
}
